import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// Settlement by agreement: `escrow_proposals` is the read model of each escrow's proposals; the escrows row keeps the
// open proposal and an agreed refund or split, which the escrow's rules read (allowed actions, the admins' queue).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('escrow_proposals')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('proposed_by', 'text', (c) => c.notNull())
    .addColumn('seller_percent', 'integer')
    .addColumn('days', 'integer')
    .addColumn('note', 'text')
    .addColumn('seller_sats', 'bigint')
    .addColumn('buyer_sats', 'bigint')
    .addColumn('decline_reason', 'text')
    .addColumn('answered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('escrow_proposals_escrow_idx')
    .on('escrow_proposals')
    .columns(['escrow_id', 'position'])
    .execute();
  await db.schema
    .alterTable('escrows')
    .addColumn('open_proposal_id', 'uuid')
    .addColumn('open_proposal_kind', 'text')
    .addColumn('open_proposal_side', 'text')
    .addColumn('open_proposal_seller_percent', 'integer')
    .addColumn('open_proposal_days', 'integer')
    .addColumn('settlement_proposal_id', 'uuid')
    .addColumn('settlement_kind', 'text')
    .addColumn('settlement_seller_percent', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('escrows')
    .dropColumn('open_proposal_id')
    .dropColumn('open_proposal_kind')
    .dropColumn('open_proposal_side')
    .dropColumn('open_proposal_seller_percent')
    .dropColumn('open_proposal_days')
    .dropColumn('settlement_proposal_id')
    .dropColumn('settlement_kind')
    .dropColumn('settlement_seller_percent')
    .execute();
  await db.schema.dropTable('escrow_proposals').ifExists().execute();
}
