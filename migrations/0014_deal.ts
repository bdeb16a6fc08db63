import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// The deal's steps on the escrows read model: the counterparty's agreement (or decline), the seller's shipment, the
// buyer's receipt and the inspection period it starts. Escrows created before have no inspection period (null).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('escrows')
    .addColumn('inspection_days', 'integer')
    .addColumn('agreed_at', 'timestamptz')
    .addColumn('declined_at', 'timestamptz')
    .addColumn('decline_reason', 'text')
    .addColumn('shipped_at', 'timestamptz')
    .addColumn('shipment_method', 'text')
    .addColumn('shipment_carrier', 'text')
    .addColumn('shipment_tracking', 'text')
    .addColumn('shipment_note', 'text')
    .addColumn('received_at', 'timestamptz')
    .addColumn('inspection_ends_at', 'timestamptz')
    .execute();
  // The inspection job looks for periods that ended without acceptance.
  await db.schema
    .createIndex('escrows_inspection_due_idx')
    .on('escrows')
    .column('inspection_ends_at')
    .where(sql.ref('buyer_confirmed_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('escrows_inspection_due_idx').execute();
  await db.schema
    .alterTable('escrows')
    .dropColumn('inspection_days')
    .dropColumn('agreed_at')
    .dropColumn('declined_at')
    .dropColumn('decline_reason')
    .dropColumn('shipped_at')
    .dropColumn('shipment_method')
    .dropColumn('shipment_carrier')
    .dropColumn('shipment_tracking')
    .dropColumn('shipment_note')
    .dropColumn('received_at')
    .dropColumn('inspection_ends_at')
    .execute();
}
