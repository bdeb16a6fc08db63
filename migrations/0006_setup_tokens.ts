import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// One-time links to create the first admin (/setup?token=...): only the token's SHA-256 is kept. Every row is
// deleted when the first admin is created through one of them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('setup_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('setup_tokens').ifExists().execute();
}
