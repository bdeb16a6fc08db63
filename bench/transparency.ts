/**
 * The transparency log's costs (issue 27): append throughput with the Merkle tree kept after each append against the
 * same appends without it; inclusion and consistency proof latency on a tree of a million leaves (built directly in
 * tlog_nodes, as a million appends would leave it); what signing a checkpoint costs.
 *   tsx bench/transparency.ts [--seconds 10] [--leaves 1000000]   (PostgreSQL at BENCH_DATABASE_URL)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { handle } from '../app-server/commands/handle.ts';
import type { DatabaseHandle } from '../app-server/db/database.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import type { EventStore } from '../app-server/event-store/event-store.ts';
import { createLogger } from '../app-server/logger.ts';
import { consistencyAnswer, inclusionAnswer } from '../app-server/transparency/queries.ts';
import { TransparencyLog, treeKeptStore } from '../app-server/transparency/transparency-log.ts';
import { escrowAggregate } from '../domain/aggregates.ts';
import type { EscrowCommand } from '../domain/escrow/decide.ts';
import { leafHash, toBase64, TreeBuilder } from '../domain/transparency/merkle.ts';
import { checkpointText, newSeed, signNote } from '../domain/transparency/note.ts';
import { nodeSigner } from '../app-server/transparency/node-signer.ts';
import { projections } from '../projections/registry.ts';
import { perSecond } from './append.ts';
import { withBenchDatabase } from './bench-database.ts';
import { PRICING } from './generated-history.ts';
import { type BenchResult, limitResult, printResult, ratioResult } from './results.ts';

const ORIGIN = 'bench.example/log';
/** Checkpoints signed to time a whole signIfGrown, each after 100 new events. */
const CHECKPOINTS = 10;

function transparencyLog(database: DatabaseHandle): TransparencyLog {
  return new TransparencyLog(database, createLogger('silent'), {
    origin: ORIGIN,
    key: { seed: newSeed(), source: 'bench' },
    intervalS: 60,
  });
}

/** `size` escrows opened through `store` (one event each). */
async function openRing(store: EventStore, admin: string, size: number): Promise<string[]> {
  const ring: string[] = [];
  for (let i = 0; i < size; i++) {
    const id = randomUUID();
    const create: EscrowCommand = {
      type: 'create',
      by: 'buyer',
      escrow_id: id,
      created_by: admin,
      creator_side: 'buyer',
      creator_email: 'buyer@example.com',
      counterparty_email: 'seller@example.com',
      product_service: `Item ${i}`,
      description: 'Benchmark deal',
      amount_cents: 150_000,
      deadline_days: 7,
      pricing: PRICING,
    };
    await handle(store, escrowAggregate, id, create, { actor: admin, requestId: 'bench-setup' });
    ring.push(id);
  }
  return ring;
}

/** Freeze / unfreeze commands on a ring of escrows through `store`, one writer, for `seconds`. */
async function commandsPerSecond(store: EventStore, seconds: number): Promise<number> {
  const admin = randomUUID();
  const ring = await openRing(store, admin, 200);
  return perSecond(1, seconds, async (_writer, i) => {
    const command: EscrowCommand =
      Math.floor(i / ring.length) % 2 === 0
        ? { type: 'freeze', by: 'admin', reason: 'Benchmark' }
        : { type: 'unfreeze', by: 'admin', reason: 'Benchmark' };
    await handle(store, escrowAggregate, ring[i % ring.length]!, command, { actor: admin, requestId: 'bench' });
  });
}

/**
 * Appends with the tree kept (each append pokes the catch-up, as the server wires it) against the same appends
 * without it, alternating twice so that drift of a shared machine hits both; the tree has caught up at the end.
 */
export async function appendWithTree(database: DatabaseHandle, seconds: number): Promise<{ off: number; on: number }> {
  const log = transparencyLog(database);
  const plain = createEventStore(database.db, projections);
  const kept = treeKeptStore(plain, log);
  await log.catchUp();
  const rates = { off: 0, on: 0 };
  for (let round = 0; round < 2; round++) {
    rates.off += (await commandsPerSecond(plain, seconds / 2)) / 2;
    await log.catchUp();
    rates.on += (await commandsPerSecond(kept, seconds / 2)) / 2;
    await log.idle();
  }
  return rates;
}

/** A tree of `leaves` random leaves written straight into tlog_nodes, with a checkpoint at its full size. */
async function buildTree(database: DatabaseHandle, leaves: number): Promise<void> {
  const { db } = database;
  const builder = new TreeBuilder();
  let rows: { level: number; idx: number; hash: Buffer }[] = [];
  const flush = async () => {
    if (rows.length) await db.insertInto('tlog_nodes').values(rows).execute();
    rows = [];
  };
  const leafBytes = randomBytes(32 * 1024);
  for (let i = 0; i < leaves; i++) {
    const leaf = leafBytes.subarray((i % 1024) * 32, (i % 1024) * 32 + 32);
    leaf.writeUInt32BE(i, 0);
    for (const node of builder.push(leafHash(leaf)))
      rows.push({ level: node.level, idx: node.index, hash: Buffer.from(node.hash) });
    if (rows.length >= 6_000) await flush();
  }
  await flush();
  await db.updateTable('tlog_state').set({ size: leaves }).where('id', '=', 1).execute();
  const root = builder.root();
  for (const size of [leaves - 1_000, leaves]) {
    const note =
      size === leaves ? signNote(checkpointText({ origin: ORIGIN, size, root }), ORIGIN, newSeed()) : 'bench';
    await db
      .insertInto('tlog_checkpoints')
      .values({ size, root_hash: toBase64(root), signed_at: new Date().toISOString(), note, vkey: 'bench' })
      .execute();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Milliseconds per call of `once`, `count` times in a row: p50 and p99. */
async function latency(count: number, once: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await once(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** Inclusion proofs of random leaves and consistency proofs from random sizes, as the read API builds them. */
export async function proofLatency(database: DatabaseHandle, leaves: number, count = 1_000) {
  await buildTree(database, leaves);
  const random = (below: number) => Math.floor(Math.random() * below);
  // The floor on this machine now: one primary-key SELECT through the same pool (a proof makes two queries).
  const primaryKey = await latency(count, () =>
    database.db
      .selectFrom('tlog_nodes')
      .select('hash')
      .where('level', '=', 0)
      .where('idx', '=', random(leaves))
      .executeTakeFirst(),
  );
  const inclusion = await latency(count, () => inclusionAnswer(database.db, random(leaves), leaves));
  const consistency = await latency(count, () => consistencyAnswer(database.db, 1 + random(leaves - 1), leaves));
  return { primaryKey, inclusion, consistency };
}

/** Ed25519 signing of a checkpoint note alone, and a whole signIfGrown (catch-up, root, sign, store) after growth. */
export async function signingCost(database: DatabaseHandle): Promise<{ signMs: number; checkpointMs: number }> {
  const signer = nodeSigner(newSeed()); // as the server signs
  const text = checkpointText({ origin: ORIGIN, size: 1_000_000, root: new Uint8Array(32).fill(7) });
  const signs = 2_000;
  const started = performance.now();
  for (let i = 0; i < signs; i++) signNote(text, ORIGIN, signer);
  const signMs = (performance.now() - started) / signs;

  const log = transparencyLog(database);
  const store = treeKeptStore(createEventStore(database.db, projections), log);
  await log.introduceKey(store);
  let signing = 0;
  for (let i = 0; i < CHECKPOINTS; i++) {
    await openRing(store, randomUUID(), 100); // 100 new events for the checkpoint to cover
    const started = performance.now();
    await log.signIfGrown();
    signing += performance.now() - started;
  }
  const checkpointMs = signing / CHECKPOINTS;
  return { signMs, checkpointMs };
}

/** Every transparency figure on `backend` (a PostgreSQL URL, or null for PGlite in memory). */
export async function transparencyBenchmarks(
  backend: string | null,
  seconds: number,
  leaves: number,
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const name = (what: string, handle: DatabaseHandle) => `${what} (${handle.backend})`;
  await withBenchDatabase(async (handle) => {
    const append = await appendWithTree(handle, seconds);
    results.push(
      ratioResult(
        name('append, 1 writer, transparency tree kept', handle),
        'commands/s',
        append.on,
        append.off,
        handle.backend === 'postgres' ? 0.9 : 0,
      ),
    );
  }, backend);
  await withBenchDatabase(async (handle) => {
    const proofs = await proofLatency(handle, leaves);
    results.push(
      limitResult(
        name(`inclusion proof p99, ${leaves.toLocaleString('en-US')} leaves`, handle),
        'ms',
        proofs.inclusion.p99,
        { below: 20 },
      ),
    );
    results.push(
      limitResult(
        name(`inclusion proof p50, ${leaves.toLocaleString('en-US')} leaves`, handle),
        'ms',
        proofs.inclusion.p50,
        {},
      ),
    );
    results.push(
      limitResult(
        name(`consistency proof p99, ${leaves.toLocaleString('en-US')} leaves`, handle),
        'ms',
        proofs.consistency.p99,
        { below: 20 },
      ),
    );
    results.push(
      limitResult(name('one primary-key SELECT of a node, p99 (the floor)', handle), 'ms', proofs.primaryKey.p99, {}),
    );
    results.push(
      limitResult(name('one primary-key SELECT of a node, p50 (the floor)', handle), 'ms', proofs.primaryKey.p50, {}),
    );
  }, backend);
  await withBenchDatabase(async (handle) => {
    const signing = await signingCost(handle);
    results.push(limitResult('checkpoint note signature (Ed25519)', 'ms', signing.signMs, {}));
    results.push(
      limitResult(
        name('checkpoint signed after 100 events (catch-up, root, sign, store), mean', handle),
        'ms',
        signing.checkpointMs,
        {},
      ),
    );
  }, backend);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '10' }, leaves: { type: 'string', default: '1000000' } },
  });
  const postgres = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  for (const result of await transparencyBenchmarks(postgres, Number(values.seconds), Number(values.leaves)))
    printResult(result);
}
