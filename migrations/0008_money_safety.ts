import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// Money safety: the seller's user id beside the buyer's (a side is bound to an account, not to whoever holds its
// e-mail later), and until when a replaced payout or refund address is held.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('escrows')
    .addColumn('seller_id', 'uuid')
    .addColumn('payout_address_held_until', 'timestamptz')
    .addColumn('refund_address_held_until', 'timestamptz')
    .execute();
  // What the escrows projection now writes for a seller's own escrow: replay gives the same rows.
  await sql`UPDATE escrows SET seller_id = created_by WHERE creator_side = 'seller'`.execute(db);
  await db.schema.createIndex('escrows_buyer_id_idx').on('escrows').column('buyer_id').execute();
  await db.schema.createIndex('escrows_seller_id_idx').on('escrows').column('seller_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('escrows_seller_id_idx').ifExists().execute();
  await db.schema.dropIndex('escrows_buyer_id_idx').ifExists().execute();
  await db.schema
    .alterTable('escrows')
    .dropColumn('seller_id')
    .dropColumn('payout_address_held_until')
    .dropColumn('refund_address_held_until')
    .execute();
}
