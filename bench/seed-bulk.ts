/**
 * Fills a store with a million events quickly: the same generated deals as seed-events.ts, decided by the real
 * deciders in memory, then appended through the event store many deals at a time, with the hash chain and the
 * inline projections. Every event names the actor whose command it came from, as a live append would: an auditor's
 * `verify-export` checks that an admin's act was done by an admin.
 *
 *   npx tsx bench/seed-bulk.ts --events 1000000 [--deals-per-append 200]   (on DATABASE_URL, else PGlite under DATA_DIR)
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../app-server/config.ts';
import { openDatabase } from '../app-server/db/database.ts';
import { migrateToLatest } from '../app-server/db/migrate.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import type { EventStore, StreamAppend } from '../app-server/event-store/event-store.ts';
import { readChainHead } from '../app-server/event-store/chain-head.ts';
import { extendTree } from '../app-server/transparency/tree.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../app-server/db/schema.ts';
import { type Aggregate, escrowAggregate, settingsAggregate } from '../domain/aggregates.ts';
import { type DomainEvent, SETTINGS_ID, streamId } from '../domain/events.ts';
import { projections } from '../projections/registry.ts';
import { generatedDeal, generatedUser, PRICING, type Runner } from './generated-history.ts';

interface Pending {
  aggregate: Aggregate<unknown, unknown>;
  state: unknown;
  /** The stream's version in the store, advanced as the flush appends to it. */
  version: number;
  /** The round of the last command decided on this stream (-1: none since the last flush). */
  lastRound: number;
}

/** A command decided in memory, waiting for the flush: who did it and what each stream it touched gained. */
interface Decided {
  round: number;
  actor: string;
  parts: { key: string; pending: Pending; events: DomainEvent[] }[];
}

/**
 * Commands decided in memory against states carried from earlier flushes; `flush` appends what they produced.
 * A command's round is one past the last round of every stream it touches, so a round touches each stream at most
 * once and keeps each stream's order. A flush appends round by round: the commands of one round grouped by actor,
 * one append per actor (so each event names its own actor), all of a round's appends submitted at once for the
 * store's group commit to write together.
 */
export function bulkRunner(db: Kysely<Database>, store: EventStore) {
  const streams = new Map<string, Pending>();
  let decided: Decided[] = [];
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  let appended = 0;
  const ctx = (actor: string) => ({ now: new Date(clock).toISOString(), newId: randomUUID, actor });

  async function stream(aggregate: Aggregate<unknown, unknown>, id: string): Promise<[string, Pending]> {
    const key = streamId(aggregate.streamType, id);
    let pending = streams.get(key);
    if (!pending) {
      const { state, version } = await store.aggregate(aggregate, id, { fresh: true });
      pending = { aggregate, state, version, lastRound: -1 };
      streams.set(key, pending);
    }
    return [key, pending];
  }
  function record(actor: string, parts: { key: string; pending: Pending; events: DomainEvent[] }[]) {
    const now = ctx(actor).now;
    const round = 1 + Math.max(...parts.map((p) => p.pending.lastRound));
    for (const { pending, events } of parts) {
      for (const event of events)
        pending.state = pending.aggregate.evolve(pending.state, { ...event, occurred_at: now });
      pending.lastRound = round;
    }
    decided.push({ round, actor, parts: parts.filter((p) => p.events.length) });
  }
  const run: Runner = {
    async one(aggregate, id, command, actor) {
      const [key, pending] = await stream(aggregate as Aggregate<unknown, unknown>, id);
      clock += 1_000;
      const events = (aggregate as Aggregate<unknown, unknown>).decide(command, pending.state, ctx(actor));
      record(actor, [{ key, pending, events }]);
    },
    async across(parts, actor) {
      const loaded = await Promise.all(parts.map((p) => stream(p.aggregate, p.id)));
      clock += 1_000;
      const events = parts.map((p, i) => p.aggregate.decide(p.command, loaded[i]![1].state, ctx(actor)));
      record(
        actor,
        loaded.map(([key, pending], i) => ({ key, pending, events: events[i]! })),
      );
    },
  };
  async function flush() {
    const rounds = new Map<number, Map<string, StreamAppend[]>>();
    for (const command of decided) {
      const byActor = rounds.get(command.round) ?? new Map<string, StreamAppend[]>();
      rounds.set(command.round, byActor);
      const appends = byActor.get(command.actor) ?? [];
      byActor.set(command.actor, appends);
      for (const { key, pending, events } of command.parts) {
        appends.push({ streamId: key, streamType: pending.aggregate.streamType, expectedVersion: 0, events });
      }
    }
    decided = [];
    const metadata = { request_id: 'seed-bulk', machine_version: escrowAggregate.rulesVersion! };
    const now = new Date(clock).toISOString();
    for (const round of [...rounds.keys()].sort((a, b) => a - b)) {
      const byActor = [...rounds.get(round)!];
      for (const [, appends] of byActor) {
        for (const a of appends) {
          const pending = streams.get(a.streamId)!;
          a.expectedVersion = pending.version;
          pending.version += a.events.length;
          appended += a.events.length;
        }
      }
      await Promise.all(byActor.map(([actor, appends]) => store.append(appends, { ...metadata, actor }, { now })));
    }
    streams.clear(); // each deal has streams of its own; earlier ones are never touched again
  }
  return { run, flush, appended: () => appended };
}

/**
 * Appends generated deals until the log holds at least `target` events (plus an admin and the pricing), `perAppend`
 * deals per flush, with every projection inline, then brings the transparency tree up to the log.
 */
export async function seedBulk(
  db: Kysely<Database>,
  target: number,
  perAppend = 200,
  onProgress?: (events: number) => void,
) {
  const bulk = bulkRunner(db, createEventStore(db, projections));
  const admin = randomUUID();
  await generatedUser(bulk.run, 'admin', admin);
  await bulk.run.one(settingsAggregate, SETTINGS_ID, { type: 'setPricing', ...PRICING }, admin);
  await bulk.flush();
  let deals = 0;
  while (bulk.appended() < target) {
    for (let i = 0; i < perAppend; i++) await generatedDeal(bulk.run, deals++, admin);
    await bulk.flush();
    onProgress?.(bulk.appended());
  }
  // As a running server leaves a store: the transparency tree holds the whole log. Otherwise the first server on the
  // store spends its first minute hashing a million events while it is measured.
  await extendTree(db);
  return { events: bulk.appended(), deals };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { events: { type: 'string', default: '1000000' }, 'deals-per-append': { type: 'string', default: '200' } },
  });
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 4 });
  await migrateToLatest(database.db);
  const started = performance.now();
  let lastReport = started;
  const seeded = await seedBulk(database.db, Number(values.events), Number(values['deals-per-append']), (events) => {
    if (performance.now() - lastReport < 10_000) return;
    lastReport = performance.now();
    console.log(`${events} events, ${Math.round(events / ((lastReport - started) / 1000))} events/s`);
  });
  const seconds = (performance.now() - started) / 1000;
  const head = await readChainHead(database.db);
  console.log(
    `${database.backend}: appended ${seeded.events} events (${seeded.deals} deals) in ${seconds.toFixed(1)} s, ${Math.round(seeded.events / seconds)} events/s; log now holds ${head.position}`,
  );
  await database.close();
}
