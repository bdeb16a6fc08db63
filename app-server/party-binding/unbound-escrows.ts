import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The escrows whose counterparty side is still matched by the user's e-mail and bound to no account yet. */
export function unboundEscrowsOf(db: Kysely<Database>, user: { id: string; email: string }) {
  const email = user.email.toLowerCase();
  return db
    .selectFrom('escrows')
    .select(['id', 'creator_side'])
    .where((eb) =>
      eb.or([
        eb.and([eb('creator_side', '=', 'seller'), eb('buyer_email', '=', email), eb('buyer_id', 'is', null)]),
        eb.and([eb('creator_side', '=', 'buyer'), eb('seller_email', '=', email), eb('seller_id', 'is', null)]),
      ]),
    )
    .where('created_by', '!=', sql<string>`${user.id}::uuid`)
    .execute();
}
