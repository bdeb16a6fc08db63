import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Changes the database behind the app's back in one transaction, as an attacker with the table owner's rights
 * could: `events` refuses UPDATE and DELETE (migration 0009), so the attacker first switches that trigger off,
 * and on again before committing. Tests of tamper detection go through here (or `allowEventTampering`).
 */
export async function tamperWith<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`ALTER TABLE events DISABLE TRIGGER events_append_only`.execute(trx);
    const result = await work(trx);
    await sql`ALTER TABLE events ENABLE TRIGGER events_append_only`.execute(trx);
    return result;
  });
}

/**
 * For a test file that tampers with `events` throughout: switches the append-only trigger off for its whole
 * database, as an attacker with the owner's rights could. Only tests of tamper detection call this.
 */
export async function allowEventTampering(db: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE events DISABLE TRIGGER events_append_only`.execute(db);
}
