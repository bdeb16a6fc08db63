import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The whole pool of payment addresses, oldest first. */
export const poolAddresses = (db: Kysely<Database>) =>
  db.selectFrom('addresses').selectAll().orderBy('created_at').orderBy('id').execute();

/** One pool address by its id. */
export const poolAddress = (db: Kysely<Database>, id: string) =>
  db.selectFrom('addresses').selectAll().where('id', '=', id).executeTakeFirst();

/** The id of the pool address with this (normalised) address string, if the pool holds it. */
export const poolAddressIdOf = async (db: Kysely<Database>, address: string) =>
  (await db.selectFrom('addresses').select('id').where('address_string', '=', address).executeTakeFirst())?.id;
