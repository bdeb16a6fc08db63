import { type Kysely, sql } from 'kysely';

// Frozen in time: never import application code here.
// The transparency log: the RFC 9162 Merkle tree over the events' chain hashes and its signed checkpoints.
export async function up(db: Kysely<any>): Promise<void> {
  // Every complete subtree of the tree: (level, index) covers leaves index*2^level .. (index+1)*2^level - 1. Level 0
  // holds the leaf hashes. Any proof reads O(log n) of these rows; a tlog-tiles tile is a range on one level.
  await db.schema
    .createTable('tlog_nodes')
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('idx', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('tlog_nodes_pk', ['level', 'idx'])
    .execute();
  // How many events the stored tree holds (its leaves are events 1..size); taken FOR UPDATE by whoever extends it.
  await db.schema
    .createTable('tlog_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('tlog_state').values({ id: 1, size: 0 }).execute();
  // Every signed checkpoint, kept: the note as published, and the key that signed it.
  await db.schema
    .createTable('tlog_checkpoints')
    .addColumn('size', 'bigint', (c) => c.primaryKey())
    .addColumn('root_hash', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('vkey', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tlog_checkpoints', 'tlog_state', 'tlog_nodes'])
    await db.schema.dropTable(table).ifExists().execute();
}
