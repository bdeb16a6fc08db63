import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import {
  consistencyProof,
  edgeOf,
  eventLeafHash,
  type Hash,
  inclusionProof,
  type NodeId,
  type NodeReader,
  nodesFor,
  rootHash,
  toHex,
  TreeBuilder,
} from '../../domain/transparency/merkle.ts';
import type { Database } from '../db/schema.ts';

/** Events read and hashed into the tree per transaction while catching up. */
const CATCH_UP_BATCH = 5_000;

/** How many events the stored tree holds. */
export async function treeSize(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('tlog_state').select('size').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.size);
}

/** The stored nodes named, as a reader; throws naming the first missing one. */
export async function readNodes(db: Kysely<Database>, ids: readonly NodeId[]): Promise<NodeReader> {
  const found = new Map<string, Hash>();
  if (ids.length) {
    const pairs = sql.join(ids.map((n) => sql`(${n.level}::smallint, ${n.index}::bigint)`));
    const rows = await db
      .selectFrom('tlog_nodes')
      .select(['level', 'idx', 'hash'])
      .where(sql<boolean>`(level, idx) in (${pairs})`)
      .execute();
    for (const row of rows) found.set(`${row.level}/${Number(row.idx)}`, new Uint8Array(row.hash));
  }
  return (level, index) => {
    const hash = found.get(`${level}/${index}`);
    if (!hash) throw new Error(`the transparency tree has no node ${level}/${index}`);
    return hash;
  };
}

/** Reads what `build` needs in one query, then builds it. */
async function withNodes<T>(db: Kysely<Database>, build: (read: NodeReader) => T): Promise<T> {
  return build(await readNodes(db, nodesFor(build)));
}

export const storedRoot = (db: Kysely<Database>, size: number) => withNodes(db, (read) => rootHash(read, size));
export const storedInclusionProof = (db: Kysely<Database>, index: number, size: number) =>
  withNodes(db, (read) => inclusionProof(read, index, size));
export const storedConsistencyProof = (db: Kysely<Database>, from: number, to: number) =>
  withNodes(db, (read) => consistencyProof(read, from, to));

/** The hashes at one tree level from `start`, at most `count` (a tlog-tiles tile is one such range). */
export async function nodesAt(db: Kysely<Database>, level: number, start: number, count: number): Promise<Hash[]> {
  const rows = await db
    .selectFrom('tlog_nodes')
    .select(['idx', 'hash'])
    .where('level', '=', level)
    .where('idx', '>=', start)
    .where('idx', '<', start + count)
    .orderBy('idx')
    .execute();
  return rows.map((r) => new Uint8Array(r.hash));
}

/**
 * Brings the stored tree up to the log: hashes every event after the tree's size into it, in batches, each batch in
 * a transaction that holds the tree's row lock (so any number of server processes and the CLI may run this at once;
 * each event is hashed in once). Only the right edge of the tree (log2 n hashes) is read to go on. A batch that was
 * not full read every event committed before it, so it is the last (no transaction more to find nothing). Returns
 * the size.
 */
export async function extendTree(db: Kysely<Database>, options: { batch?: number } = {}): Promise<number> {
  const batch = options.batch ?? CATCH_UP_BATCH;
  for (;;) {
    const { size, added } = await db.transaction().execute((trx) => extendOnce(trx, batch));
    if (added < batch) return size;
  }
}

async function extendOnce(trx: Transaction<Database>, batch: number): Promise<{ size: number; added: number }> {
  const state = await trx
    .selectFrom('tlog_state')
    .select('size')
    .where('id', '=', 1)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const size = Number(state.size);
  const events = await trx
    .selectFrom('events')
    .select(['position', 'hash'])
    .where('position', '>', size)
    .where('position', '<=', size + batch)
    .orderBy('position')
    .execute();
  // Positions are gapless and committed in order; stop at a gap all the same (the next run takes it up).
  let leaves = 0;
  while (leaves < events.length && Number(events[leaves]!.position) === size + leaves + 1) leaves++;
  if (leaves === 0) return { size, added: 0 };
  const edge = edgeOf(size);
  const read = await readNodes(trx, edge);
  const builder = TreeBuilder.resume(
    size,
    edge.map((n) => read(n.level, n.index)),
  );
  const levels: number[] = [];
  const indexes: number[] = [];
  const hashes: string[] = [];
  for (const event of events.slice(0, leaves)) {
    for (const node of builder.push(eventLeafHash(event.hash))) {
      levels.push(node.level);
      indexes.push(node.index);
      hashes.push(toHex(node.hash));
    }
  }
  // One statement, three array parameters whatever the batch: the new nodes and the tree's new size.
  await sql`
    WITH nodes AS (
      INSERT INTO tlog_nodes (level, idx, hash)
      SELECT l, i, decode(h, 'hex') FROM unnest(${levels}::smallint[], ${indexes}::bigint[], ${hashes}::text[]) AS n(l, i, h)
    )
    UPDATE tlog_state SET size = ${size + leaves} WHERE id = 1`.execute(trx);
  return { size: size + leaves, added: leaves };
}

/** Empties the tree and its checkpoints (an import restores a log into an empty store, then rebuilds the tree). */
export async function resetTree(trx: Kysely<Database>): Promise<void> {
  await trx.deleteFrom('tlog_nodes').execute();
  await trx.deleteFrom('tlog_checkpoints').execute();
  await trx.updateTable('tlog_state').set({ size: 0 }).where('id', '=', 1).execute();
}
