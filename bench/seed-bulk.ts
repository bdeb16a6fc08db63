/**
 * Fills a store with a million events quickly: the same generated deals as seed-events.ts, decided by the real
 * deciders in memory, then appended through the event store many deals per append, with the hash chain and the
 * inline projections. Each append's metadata names actor `system`. For benchmarks only.
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
import type { Kysely } from 'kysely';
import type { Database } from '../app-server/db/schema.ts';
import { type Aggregate, escrowAggregate, settingsAggregate } from '../domain/aggregates.ts';
import { type DomainEvent, SETTINGS_ID, streamId } from '../domain/events.ts';
import { projections } from '../projections/registry.ts';
import { generatedDeal, generatedUser, PRICING, type Runner } from './generated-history.ts';

interface Pending {
  aggregate: Aggregate<unknown, unknown>;
  state: unknown;
  version: number;
  events: DomainEvent[];
}

/** Commands decided in memory against states carried from earlier batches; `flush` appends what they produced. */
export function bulkRunner(db: Kysely<Database>, store: EventStore) {
  const streams = new Map<string, Pending>();
  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  let appended = 0;
  const ctx = () => ({ now: new Date(clock).toISOString(), newId: randomUUID, actor: 'system' });

  async function stream(aggregate: Aggregate<unknown, unknown>, id: string): Promise<Pending> {
    const key = streamId(aggregate.streamType, id);
    let pending = streams.get(key);
    if (!pending) {
      const { state, version } = await store.aggregate(aggregate, id, { fresh: true });
      pending = { aggregate, state, version, events: [] };
      streams.set(key, pending);
    }
    return pending;
  }
  function apply(pending: Pending, events: DomainEvent[]) {
    const now = ctx().now;
    for (const event of events) pending.state = pending.aggregate.evolve(pending.state, { ...event, occurred_at: now });
    pending.events.push(...events);
  }
  const run: Runner = {
    async one(aggregate, id, command) {
      const pending = await stream(aggregate as Aggregate<unknown, unknown>, id);
      clock += 1_000;
      apply(pending, (aggregate as Aggregate<unknown, unknown>).decide(command, pending.state, ctx()));
    },
    async across(parts) {
      const loaded = await Promise.all(parts.map((p) => stream(p.aggregate, p.id)));
      clock += 1_000;
      const decided = parts.map((p, i) => p.aggregate.decide(p.command, loaded[i]!.state, ctx()));
      decided.forEach((events, i) => apply(loaded[i]!, events));
    },
  };
  async function flush() {
    const appends: StreamAppend[] = [];
    for (const [key, pending] of streams) {
      if (!pending.events.length) continue;
      appends.push({
        streamId: key,
        streamType: pending.aggregate.streamType,
        expectedVersion: pending.version,
        events: pending.events,
      });
    }
    if (!appends.length) return;
    await store.append(
      appends,
      { actor: 'system', request_id: 'seed-bulk', machine_version: escrowAggregate.rulesVersion! },
      { now: new Date(clock).toISOString() },
    );
    appended += appends.reduce((n, a) => n + a.events.length, 0);
    streams.clear(); // each deal has streams of its own; earlier ones are never touched again
  }
  return { run, flush, appended: () => appended };
}

/**
 * Appends generated deals until the log holds at least `target` events (plus an admin and the pricing), `perAppend`
 * deals per append, with every projection inline (rows a deal creates are read back from the append's own buffer).
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
