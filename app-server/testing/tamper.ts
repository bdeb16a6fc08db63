import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Changes the database behind the app's back in one transaction, as an attacker with direct access would. */
export async function tamperWith<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
