import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// Secrets and security bookkeeping: never events, never read models, never exported.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('credentials')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('must_change', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('totp_secrets')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  // Fixed-window counters for abuse limits, shared by every server process.
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'key', 'window_start'])
    .execute();

  // Failed sign-ins: bounded (pruned by age), outside the event log so a flood cannot grow the ledger.
  await db.schema
    .createTable('security_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('client_address', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('security_log_at_idx').on('security_log').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'security_log',
    'rate_limit_counters',
    'recovery_codes',
    'totp_secrets',
    'email_tokens',
    'sessions',
    'credentials',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
