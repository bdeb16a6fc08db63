import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { messageIdOf } from './outbox.ts';
import type { MailTransport } from './transports.ts';

export const MAX_MAIL_ATTEMPTS = 10;

/** Minutes to wait after the n-th failed attempt: 1, 2, 4 … capped at an hour. */
export const retryDelayMinutes = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1));

/**
 * Delivers due mail. Each row is claimed with FOR UPDATE SKIP LOCKED inside its own transaction, so several
 * server processes never send the same mail twice; a failure schedules a retry with backoff. Each mail carries the
 * Message-ID of its row, so one handed over just before a crash and sent again after it is known as the same mail.
 */
export async function deliverDueMail(
  db: Kysely<Database>,
  transport: MailTransport,
  logger: Logger,
  options: { batch?: number; now?: () => Date } = {},
): Promise<{ sent: number; failed: number }> {
  const now = options.now ?? (() => new Date());
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < (options.batch ?? 50); i++) {
    const outcome = await db.transaction().execute(async (trx) => {
      const mail = await trx
        .selectFrom('mail_outbox')
        .select(['id', 'to_address', 'subject', 'body', 'attempts', 'created_at'])
        .where('sent_at', 'is', null)
        .where('attempts', '<', MAX_MAIL_ATTEMPTS)
        // Without a given clock, the database's: mail is queued at its now(), to the microsecond, which a Date
        // taken in the same millisecond would see as not yet due.
        .where('next_attempt_at', '<=', options.now ? options.now() : sql<Date>`now()`)
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!mail) return 'none' as const;
      const at = now().toISOString();
      try {
        const messageId = messageIdOf(mail, transport.messageDomain ?? 'localhost');
        await transport.send({ to: mail.to_address, subject: mail.subject, text: mail.body, messageId }, at);
        await trx
          .updateTable('mail_outbox')
          .set({ sent_at: at, attempts: mail.attempts + 1 })
          .where('id', '=', mail.id)
          .execute();
        return 'sent' as const;
      } catch (error) {
        const attempts = mail.attempts + 1;
        logger.warn({ mail_id: mail.id, attempts, err: (error as Error).message }, 'mail delivery failed; will retry');
        await trx
          .updateTable('mail_outbox')
          .set({
            attempts,
            last_error: String((error as Error).message).slice(0, 500),
            next_attempt_at: sql<string>`${at}::timestamptz + make_interval(mins => ${retryDelayMinutes(attempts)})`,
          })
          .where('id', '=', mail.id)
          .execute();
        return 'failed' as const;
      }
    });
    if (outcome === 'none') break;
    if (outcome === 'sent') sent++;
    else failed++;
  }
  return { sent, failed };
}
