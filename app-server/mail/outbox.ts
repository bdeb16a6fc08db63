import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PlainInsert } from '../event-store/append-statement.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Queues mail inside the caller's transaction, so a mail exists exactly when the events that caused it were
 * committed. Nothing is sent here: the sender loop delivers it later, with retries.
 */
export async function enqueueMail(trx: Transaction<Database>, mails: readonly OutgoingMail[]): Promise<void> {
  if (mails.length === 0) return;
  await trx.insertInto('mail_outbox').values(mails.map(outboxRow)).execute();
}

/** The same mail as rows an append writes in its own statement (its `alsoInsert`). */
export const queuedMail = (mails: readonly OutgoingMail[]): PlainInsert => ({ table: 'mail_outbox', rows: mails.map(outboxRow) });

const outboxRow = (m: OutgoingMail) => ({ to_address: m.to, subject: m.subject, body: m.text });
