/**
 * Appends: single-event commands per second through the command handler (load the stream, the escrow machine
 * decides, append with the hash chain and the inline projections), with 1 and 16 writers each on its own escrows,
 * against raw single-row INSERTs into a table shaped like `events` through the same driver (with 16 writers each
 * transaction first takes the chain-head lock the store takes).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { handle } from '../app-server/commands/handle.ts';
import type { DatabaseHandle } from '../app-server/db/database.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import type { EventStore } from '../app-server/event-store/event-store.ts';
import { escrowAggregate } from '../domain/aggregates.ts';
import type { EscrowCommand } from '../domain/escrow/decide.ts';
import { projections } from '../projections/registry.ts';
import { PRICING } from './generated-history.ts';

/** Runs `writers` loops of `once` for `seconds`; returns completed operations per second. */
export async function perSecond(
  writers: number,
  seconds: number,
  once: (writer: number, i: number) => Promise<void>,
): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await once(writer, i);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/**
 * Writes what earlier phases left in memory to disk before a timed phase, so no phase pays for another's
 * checkpoint (a single writer waits on every commit, and a checkpoint running meanwhile cost it up to 40%).
 */
async function atRest(db: DatabaseHandle['db']): Promise<void> {
  await sql`CHECKPOINT`.execute(db);
}

/** Raw INSERTs of one event-shaped row each; with `lock`, each in a transaction that takes the chain-head lock first. */
export async function rawInsertsPerSecond(
  database: DatabaseHandle,
  writers: number,
  seconds: number,
  lock: boolean,
): Promise<number> {
  const { db } = database;
  await sql`DROP TABLE IF EXISTS bench_raw_events`.execute(db);
  await sql`CREATE TABLE bench_raw_events (LIKE events INCLUDING ALL)`.execute(db);
  let position = 0;
  const insert = (executor: typeof db) => {
    position += 1;
    return sql`INSERT INTO bench_raw_events (position, event_id, stream_id, stream_type, stream_version, type, schema_version, data, metadata, occurred_at, prev_hash, hash)
      VALUES (${position}, ${randomUUID()}, ${`escrow:${randomUUID()}`}, 'escrow', 1, 'EscrowFrozen', 1, ${JSON.stringify({ reason: 'bench' })}, ${JSON.stringify({ actor: 'system', request_id: 'bench' })}, ${new Date().toISOString()}, ${'0'.repeat(64)}, ${'f'.repeat(64)})`.execute(
      executor,
    );
  };
  try {
    await atRest(db);
    return await perSecond(writers, seconds, async () => {
      if (!lock) {
        await insert(db);
        return;
      }
      await db.transaction().execute(async (trx) => {
        await sql`SELECT position FROM chain_head WHERE id = 1 FOR UPDATE`.execute(trx);
        await insert(trx);
      });
    });
  } finally {
    await sql`DROP TABLE bench_raw_events`.execute(db);
  }
}

/** `count` escrows created by one buyer, for commands to act on. */
async function openEscrows(deps: { db: DatabaseHandle['db']; store: EventStore }, count: number): Promise<string[]> {
  const buyer = randomUUID();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const create: EscrowCommand = {
      type: 'create',
      by: 'buyer',
      escrow_id: id,
      created_by: buyer,
      creator_side: 'buyer',
      creator_email: 'buyer@example.com',
      counterparty_email: 'seller@example.com',
      product_service: `Item ${i}`,
      description: 'Benchmark deal',
      amount_cents: 150_000,
      deadline_days: 7,
      pricing: PRICING,
    };
    await handle(deps.store, escrowAggregate, id, create, { actor: buyer, requestId: 'bench-setup' });
    ids.push(id);
  }
  return ids;
}

/**
 * Freeze / unfreeze commands by an admin, each writer on its own ring of escrows (so streams stay as short as a real
 * deal's, ~10 events, over the run): one event per command, through the escrow machine.
 */
export async function commandsPerSecond(database: DatabaseHandle, writers: number, seconds: number): Promise<number> {
  const deps = { db: database.db, store: createEventStore(database.db, projections) };
  const perWriter = Math.ceil(500 / writers);
  const rings = await Promise.all(Array.from({ length: writers }, () => openEscrows(deps, perWriter)));
  const admin = randomUUID();
  await atRest(database.db);
  return perSecond(writers, seconds, async (writer, i) => {
    const ring = rings[writer]!;
    const round = Math.floor(i / ring.length);
    const command: EscrowCommand =
      round % 2 === 0
        ? { type: 'freeze', by: 'admin', reason: 'Benchmark' }
        : { type: 'unfreeze', by: 'admin', reason: 'Benchmark' };
    await handle(deps.store, escrowAggregate, ring[i % ring.length]!, command, { actor: admin, requestId: 'bench' });
  });
}
