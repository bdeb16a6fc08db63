import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here. Every table is a projection of the event log.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'boolean', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('phone', 'text')
    .addColumn('is_frozen', 'boolean', (c) => c.notNull())
    .addColumn('suspension_reason', 'text')
    .addColumn('totp_enabled', 'boolean', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX users_username_unique ON users (lower(username))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_unique ON users (lower(email))`.execute(db);

  await db.schema
    .createTable('escrows')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('product_service', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('fee_bps', 'integer', (c) => c.notNull())
    .addColumn('fee_cents', 'bigint', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('rate_cents', 'bigint', (c) => c.notNull())
    .addColumn('amount_sats', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_before_freeze', 'text')
    .addColumn('status_before_dispute', 'text')
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('seller_email', 'text', (c) => c.notNull())
    .addColumn('creator_side', 'text', (c) => c.notNull())
    .addColumn('created_by', 'uuid', (c) => c.notNull())
    .addColumn('buyer_id', 'uuid')
    .addColumn('assigned_address_id', 'uuid')
    .addColumn('assigned_address', 'text')
    .addColumn('deadline_days', 'integer', (c) => c.notNull())
    .addColumn('payment_due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('payment_marked_at', 'timestamptz')
    .addColumn('buyer_confirmed_at', 'timestamptz')
    .addColumn('payout_address', 'text')
    .addColumn('refund_address', 'text')
    .addColumn('open_dispute_id', 'uuid')
    .addColumn('payment_txid', 'text')
    .addColumn('payout_txid', 'text')
    .addColumn('seller_sats', 'bigint')
    .addColumn('buyer_sats', 'bigint')
    .addColumn('fee_sats', 'bigint')
    .addColumn('funded_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('escrows_created_by_idx').on('escrows').columns(['created_by', 'created_at']).execute();
  await db.schema.createIndex('escrows_buyer_email_idx').on('escrows').columns(['buyer_email', 'created_at']).execute();
  await db.schema
    .createIndex('escrows_seller_email_idx')
    .on('escrows')
    .columns(['seller_email', 'created_at'])
    .execute();
  await db.schema.createIndex('escrows_status_idx').on('escrows').columns(['status', 'payment_due_at']).execute();

  await db.schema
    .createTable('addresses')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('address_string', 'text', (c) => c.notNull().unique())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('assigned_to_escrow_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('addresses_status_idx').on('addresses').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('disputes')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('opened_by_side', 'text', (c) => c.notNull())
    .addColumn('opened_by', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('resolution', 'text')
    .addColumn('seller_percent', 'integer')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('disputes_status_idx').on('disputes').columns(['status', 'opened_at']).execute();
  await db.schema.createIndex('disputes_escrow_idx').on('disputes').column('escrow_id').execute();

  await db.schema
    .createTable('payment_marks')
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('mark_position', 'bigint', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('marked_by', 'text', (c) => c.notNull())
    .addColumn('marked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('decision_notes', 'text')
    .addPrimaryKeyConstraint('payment_marks_pk', ['escrow_id', 'mark_position'])
    .execute();
  await db.schema
    .createIndex('payment_marks_status_idx')
    .on('payment_marks')
    .columns(['status', 'marked_at'])
    .execute();
  await db.schema
    .createTable('payment_mark_current')
    .addColumn('escrow_id', 'uuid', (c) => c.primaryKey())
    .addColumn('mark_position', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('payment_evidence')
    .addColumn('evidence_id', 'uuid', (c) => c.primaryKey())
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('mark_position', 'bigint', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_evidence_mark_idx')
    .on('payment_evidence')
    .columns(['escrow_id', 'mark_position'])
    .execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('rating', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('escrow_id', 'uuid')
    .addColumn('verified_deal', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('edited_by_admin', 'boolean', (c) => c.notNull())
    .addColumn('admin_edit_note', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reviews_status_created_idx').on('reviews').columns(['status', 'created_at']).execute();
  await db.schema
    .createIndex('reviews_status_rating_idx')
    .on('reviews')
    .columns(['status', 'rating', 'created_at'])
    .execute();
  await db.schema
    .createIndex('reviews_country_idx')
    .on('reviews')
    .columns(['country', 'status', 'created_at'])
    .execute();

  await db.schema
    .createTable('review_stats')
    .addColumn('rating', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('review_countries')
    .addColumn('country', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('review_stats_members')
    .addColumn('review_id', 'uuid', (c) => c.primaryKey())
    .addColumn('rating', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('public', 'boolean', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('rate_cents', 'bigint')
    .addColumn('rate_set_at', 'timestamptz')
    .addColumn('fee_bps', 'integer', (c) => c.notNull())
    .addColumn('fee_set_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'timestamptz', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'uuid')
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_timestamp_idx').on('audit_log').column('timestamp').execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor', 'id']).execute();
  await db.schema
    .createIndex('audit_log_object_idx')
    .on('audit_log')
    .columns(['object_type', 'object_id', 'id'])
    .execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action_type', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'audit_log',
    'settings',
    'review_stats_members',
    'review_countries',
    'review_stats',
    'reviews',
    'payment_evidence',
    'payment_mark_current',
    'payment_marks',
    'disputes',
    'addresses',
    'escrows',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
