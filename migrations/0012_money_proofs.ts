import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// Payment proofs (SPV): the bytes of each proof beside the log (the PaymentVerified event records the proof's
// SHA-256, so the log vouches for the bytes kept here; they are written in the same transaction as that event), and
// what the proof showed on the escrow's row, for the escrow page and the console. Payout and refund addresses proven
// by a BIP-322 signature are marked on the row too.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_proofs')
    .addColumn('proof_sha256', 'text', (c) => c.primaryKey())
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('tx_hex', 'text', (c) => c.notNull())
    .addColumn('txout_proof', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_proofs_escrow_id_idx').on('payment_proofs').column('escrow_id').execute();
  await db.schema
    .alterTable('escrows')
    .addColumn('payment_block_hash', 'text')
    .addColumn('payment_confirmations', 'integer')
    .addColumn('payment_received_sats', 'bigint')
    .addColumn('payment_proof_sha256', 'text')
    .addColumn('payment_work_judged', 'boolean')
    .addColumn('payout_address_proven', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('refund_address_proven', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('escrows')
    .dropColumn('payment_block_hash')
    .dropColumn('payment_confirmations')
    .dropColumn('payment_received_sats')
    .dropColumn('payment_proof_sha256')
    .dropColumn('payment_work_judged')
    .dropColumn('payout_address_proven')
    .dropColumn('refund_address_proven')
    .execute();
  await db.schema.dropTable('payment_proofs').ifExists().execute();
}
