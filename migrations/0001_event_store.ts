import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('streams')
    .addColumn('stream_id', 'text', (c) => c.primaryKey())
    .addColumn('stream_type', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();

  // Positions are handed out under the chain_head row lock, so they are gapless and in commit order.
  await db.schema
    .createTable('events')
    .addColumn('position', 'bigint', (c) => c.primaryKey())
    .addColumn('transaction_id', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
    .addColumn('event_id', 'uuid', (c) => c.notNull().unique())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('stream_type', 'text', (c) => c.notNull())
    .addColumn('stream_version', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'integer', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addUniqueConstraint('events_stream_version_unique', ['stream_id', 'stream_version'])
    .execute();
  await db.schema.createIndex('events_type_idx').on('events').columns(['type', 'position']).execute();
  await db.schema.createIndex('events_stream_type_idx').on('events').columns(['stream_type', 'position']).execute();

  await db.schema
    .createTable('chain_head')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('chain_head')
    .values({ id: 1, position: 0, hash: '0'.repeat(64) })
    .execute();

  // Mail written in the same transaction as the events that cause it; a sender loop delivers it.
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['next_attempt_at'])
    .where(sql.ref('sent_at'), 'is', null)
    .execute();

  // Idempotency-Key: the first answer to a (key, actor) is kept and returned to retries with the same body.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['key', 'actor'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_keys', 'mail_outbox', 'chain_head', 'events', 'streams']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
