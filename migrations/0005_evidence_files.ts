import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// The bytes of payment evidence. The PaymentMarked event carries each file's SHA-256, so the log vouches for the
// bytes kept here; they are written in the same transaction as that event.
// Notices: one row per alert that must go out once until its cause clears (the address pool running low).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('evidence_files')
    .addColumn('evidence_id', 'uuid', (c) => c.primaryKey())
    .addColumn('escrow_id', 'uuid', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('notices')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('raised_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notices').ifExists().execute();
  await db.schema.dropTable('evidence_files').ifExists().execute();
}
