import type { Selectable, Transaction } from 'kysely';
import { adminsHearOfMessage } from '../../domain/escrow/message-audience.ts';
import { MESSAGE_MAIL_WINDOW_MINUTES } from '../../domain/escrow/message-rules.ts';
import type { EscrowStatus } from '../../domain/escrow/state.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import { idOfStream } from '../../projections/stream-ids.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { AfterAppend } from '../event-store/event-store.ts';
import { mailsFor } from '../escrows/notifications.ts';
import { adminConsolePath, adminEmails } from '../mail/admins.ts';
import { withJobLock } from '../jobs/job-lock.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { escrowRef, userWords } from '../mail/user-words.ts';

export type RecipientSide = 'buyer' | 'seller' | 'admin';
export interface Recipient {
  email: string;
  side: RecipientSide;
}
type Escrow = Selectable<EscrowRow>;
type MessageRow = Selectable<Database['escrow_messages']>;

const WINDOW_MS = MESSAGE_MAIL_WINDOW_MINUTES * 60_000;

/**
 * Who hears of a message: the other side (both parties when an admin wrote it) and, while the escrow is disputed,
 * the admins, who are told what the parties write (not what another admin wrote: they read it in the console).
 */
export function recipientsOf(
  side: RecipientSide,
  escrow: Pick<Escrow, 'buyer_email' | 'seller_email' | 'status'>,
  admins: readonly string[],
): Recipient[] {
  const parties: Recipient[] = [
    { email: escrow.buyer_email, side: 'buyer' },
    { email: escrow.seller_email, side: 'seller' },
  ];
  const toAdmins = adminsHearOfMessage({ status: escrow.status as EscrowStatus }, side)
    ? admins.map((email) => ({ email, side: 'admin' as const }))
    : [];
  return [...parties.filter((p) => p.side !== side), ...toAdmins];
}

/** The mail that tells `recipient` of the messages they have not been told of yet. Pure. */
export function digestMail(
  recipient: Recipient,
  messages: readonly Pick<MessageRow, 'side' | 'text' | 'file_name' | 'created_at'>[],
  escrow: Escrow,
  baseUrl: string,
) {
  const ref = escrowRef(escrow.id);
  const what = ref.replace(/^escrow /, '');
  const lines = messages.flatMap((m) => [
    '',
    ...userWords(
      `${m.side === 'admin' ? 'An admin' : `The ${m.side}`} wrote at ${displayUtc(m.created_at.toISOString())}`,
      m.text,
    ),
    ...(m.file_name ? [`(with a file: ${m.file_name})`] : []),
  ]);
  const letter = {
    to: recipient.side === 'admin' ? ('admins' as const) : recipient.side,
    adminPath: adminConsolePath.disputes,
    subject: messages.length === 1 ? `New message: ${ref}` : `${messages.length} new messages: ${ref}`,
    lines: [
      messages.length === 1
        ? `There is a new message on escrow ${what}.`
        : `There are ${messages.length} new messages on escrow ${what}.`,
      ...lines,
      '',
      recipient.side === 'admin'
        ? 'Answer in the dispute view of the admin console.'
        : 'Read the whole conversation and answer on the escrow page.',
      `You get at most one such mail per escrow every ${MESSAGE_MAIL_WINDOW_MINUTES} minutes; later messages follow in the next.`,
    ],
  };
  return mailsFor(letter, escrow, recipient.side === 'admin' ? [recipient.email] : [], baseUrl).filter(
    (m) => m.to === recipient.email,
  );
}

/** Messages on the escrow after `afterPosition` that `recipient` did not write themselves (by side), oldest first. */
const untoldMessages = (trx: Transaction<Database>, escrowId: string, side: RecipientSide, afterPosition: number) =>
  trx
    .selectFrom('escrow_messages')
    .select(['side', 'text', 'file_name', 'created_at', 'position'])
    .where('escrow_id', '=', escrowId)
    .where('position', '>', afterPosition)
    .where('side', '!=', side)
    .orderBy('position')
    .execute();

/** A recipient's throttle on one escrow: when they were last mailed, through which message, whether more wait. */
interface DigestKey {
  escrow_id: string;
  recipient: string;
}
const lockedDigest = (trx: Transaction<Database>, key: DigestKey) =>
  trx
    .selectFrom('message_mail_digests')
    .selectAll()
    .where((eb) => eb.and(key))
    .forUpdate()
    .executeTakeFirst();

/** Mails `recipient` one digest of the messages after `afterPosition` they did not write; answers the last position told. */
async function tellUntold(
  trx: Transaction<Database>,
  escrow: Escrow,
  recipient: Recipient,
  afterPosition: number,
  baseUrl: string,
): Promise<number> {
  const messages = await untoldMessages(trx, escrow.id, recipient.side, afterPosition);
  if (messages.length) await enqueueMail(trx, digestMail(recipient, messages, escrow, baseUrl));
  return messages.at(-1)?.position ?? afterPosition;
}

/**
 * Inside the transaction of a `MessagePosted` (its read model row is written there), per recipient: mail now when
 * no message mail went to them about this escrow in the last window, else note that messages wait; the job
 * (`sendDueMessageDigests`) mails those once the window has passed. The time is the event's, so a test moves it.
 */
export function mailOnMessages(baseUrl: string) {
  return async (trx: Transaction<Database>, stored: StoredEvent[]) => {
    for (const event of stored) {
      if (event.type !== 'MessagePosted') continue;
      const escrowId = idOfStream(event.stream_id);
      const escrow = await trx.selectFrom('escrows').selectAll().where('id', '=', escrowId).executeTakeFirst();
      if (!escrow) continue;
      const admins = adminsHearOfMessage({ status: escrow.status as EscrowStatus }, event.data.side)
        ? await adminEmails(trx)
        : [];
      const at = new Date(event.occurred_at);
      for (const recipient of recipientsOf(event.data.side, escrow, admins)) {
        const key = { escrow_id: escrowId, recipient: recipient.email };
        const throttle = await lockedDigest(trx, key);
        if (throttle && at.getTime() - throttle.last_mailed_at.getTime() < WINDOW_MS) {
          if (!throttle.pending_since) {
            await trx
              .updateTable('message_mail_digests')
              .set({ pending_since: at })
              .where((eb) => eb.and(key))
              .execute();
          }
          continue;
        }
        const through = await tellUntold(
          trx,
          escrow,
          recipient,
          throttle ? throttle.mailed_through_position : event.position - 1,
          baseUrl,
        );
        const told = {
          last_mailed_at: at,
          mailed_through_position: through,
          pending_since: null,
          recipient_side: recipient.side,
        };
        await trx
          .insertInto('message_mail_digests')
          .values({ ...key, ...told })
          .onConflict((oc) => oc.columns(['escrow_id', 'recipient']).doUpdateSet(told))
          .execute();
      }
    }
  };
}

/** Advisory lock key of the digest job (any constant unique among this product's jobs). */
const DIGEST_LOCK = 74_215;
const BATCH = 200;

/**
 * Mails every recipient whose messages have waited and whose window has passed: one digest each of the messages they
 * were not told of yet. Answers how many mails it queued, or null when another process is running it.
 */
export async function sendDueMessageDigests(
  deps: { database: DatabaseHandle },
  baseUrl: string,
  now = new Date(),
): Promise<number | null> {
  const { db } = deps.database;
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  return withJobLock(deps.database, DIGEST_LOCK, async () => {
    let sent = 0;
    const due = await db
      .selectFrom('message_mail_digests')
      .select(['escrow_id', 'recipient'])
      .where('pending_since', 'is not', null)
      .where('last_mailed_at', '<=', windowStart)
      .orderBy('last_mailed_at')
      .limit(BATCH)
      .execute();
    for (const key of due) {
      sent += await db.transaction().execute(async (trx) => {
        const row = await lockedDigest(trx, key);
        // Told meanwhile (a message mailed at once after its window): nothing waits any more.
        if (!row?.pending_since || row.last_mailed_at > windowStart) return 0;
        const escrow = await trx.selectFrom('escrows').selectAll().where('id', '=', row.escrow_id).executeTakeFirst();
        const recipient = { email: row.recipient, side: row.recipient_side };
        const through = escrow
          ? await tellUntold(trx, escrow, recipient, row.mailed_through_position, baseUrl)
          : row.mailed_through_position;
        await trx
          .updateTable('message_mail_digests')
          .set({ last_mailed_at: now, pending_since: null, mailed_through_position: through })
          .where((eb) => eb.and(key))
          .execute();
        return through > row.mailed_through_position ? 1 : 0;
      });
    }
    return sent;
  });
}

/** The message mail, registered with the event store: it runs in the transaction of every `MessagePosted`. */
export const messageMailEffect = (baseUrl: string): AfterAppend => ({
  name: 'message mail',
  handles: ['MessagePosted'],
  run: mailOnMessages(baseUrl),
});
