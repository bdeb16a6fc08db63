import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// The conversation on each escrow: `escrow_messages` is the read model of its MessagePosted events (an attachment's
// bytes live in `evidence_files`, like payment evidence). `message_mail_digests` is not a read model: per escrow and
// recipient, when a message mail last went out and since when messages wait for the next one (at most one mail per
// escrow per recipient per window).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('escrow_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('file_evidence_id', 'uuid')
    .addColumn('file_name', 'text')
    .addColumn('file_content_type', 'text')
    .addColumn('file_size_bytes', 'bigint')
    .addColumn('file_sha256', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('escrow_messages_escrow_idx')
    .on('escrow_messages')
    .columns(['escrow_id', 'position'])
    .execute();
  await sql`CREATE UNIQUE INDEX escrow_messages_file_idx ON escrow_messages (file_evidence_id) WHERE file_evidence_id IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('message_mail_digests')
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('recipient_side', 'text', (c) => c.notNull())
    .addColumn('last_mailed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('mailed_through_position', 'bigint', (c) => c.notNull())
    .addColumn('pending_since', 'timestamptz')
    .addPrimaryKeyConstraint('message_mail_digests_pk', ['escrow_id', 'recipient'])
    .execute();
  await sql`CREATE INDEX message_mail_digests_pending_idx ON message_mail_digests (last_mailed_at) WHERE pending_since IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_mail_digests').ifExists().execute();
  await db.schema.dropTable('escrow_messages').ifExists().execute();
}
