import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PlainInsert } from '../event-store/append-statement.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** A queued mail as it is handed to a transport: with the Message-ID its outbox row gives it. */
export interface DeliveredMail extends OutgoingMail {
  messageId: string;
}

/**
 * The Message-ID of the mail in one outbox row: the same for every attempt to deliver that row, so a receiver drops
 * the copy a retry sends (delivery is at least once: a mail handed to SMTP just before a crash goes again). The row's
 * id and the instant it was queued keep it unique beyond one database; `domain` is the sender's (MAIL_FROM's).
 */
export const messageIdOf = (row: { id: number; created_at: Date }, domain: string) =>
  `<outbox.${row.id}.${row.created_at.getTime()}@${domain}>`;

/** The domain of a mail address, for Message-IDs ('localhost' when there is none). */
export const domainOf = (address: string) => /@([A-Za-z0-9.-]+)>?\s*$/.exec(address)?.[1]?.toLowerCase() ?? 'localhost';

/**
 * Queues mail inside the caller's transaction, so a mail exists exactly when the events that caused it were
 * committed. Nothing is sent here: the sender loop delivers it later, with retries.
 */
export async function enqueueMail(trx: Transaction<Database>, mails: readonly OutgoingMail[]): Promise<void> {
  if (mails.length === 0) return;
  await trx.insertInto('mail_outbox').values(mails.map(outboxRow)).execute();
}

/** The same mail as rows an append writes in its own statement (its `alsoInsert`). */
export const queuedMail = (mails: readonly OutgoingMail[]): PlainInsert => ({
  table: 'mail_outbox',
  rows: mails.map(outboxRow),
});

const outboxRow = (m: OutgoingMail) => ({ to_address: m.to, subject: m.subject, body: m.text });
