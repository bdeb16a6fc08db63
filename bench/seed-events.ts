/**
 * Fills the configured store (DATABASE_URL, else PGlite under DATA_DIR) with generated history (see
 * generated-history.ts) through the real command handlers, one append per command, several deals at a time.
 * For benchmarks and replay checks only: never run it against real data. For a million events, seed-bulk.ts.
 *
 *   npx tsx bench/seed-events.ts --events 100000 [--concurrency 8]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type CommandMeta, handle, handleAll } from '../app-server/commands/handle.ts';
import { loadConfig } from '../app-server/config.ts';
import { openDatabase } from '../app-server/db/database.ts';
import { migrateToLatest } from '../app-server/db/migrate.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import { readChainHead } from '../app-server/event-store/chain-head.ts';
import { settingsAggregate } from '../domain/aggregates.ts';
import { SETTINGS_ID } from '../domain/events.ts';
import { projections } from '../projections/registry.ts';
import { generatedDeal, generatedUser, PRICING, type Runner } from './generated-history.ts';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '100000' }, concurrency: { type: 'string', default: '8' } },
});
const target = Number(values.events);
const concurrency = Number(values.concurrency);

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: concurrency + 2,
});
await migrateToLatest(database.db);
const deps = { db: database.db, store: createEventStore(database.db, projections) };

let clock = Date.parse('2026-01-01T00:00:00.000Z');
const meta = (actor: string): CommandMeta => {
  clock += 1_000;
  return { actor, requestId: 'seed', now: new Date(clock).toISOString() };
};
const run: Runner = {
  one: async (aggregate, id, command, actor) => {
    await handle(deps.store, aggregate, id, command, meta(actor));
  },
  across: async (parts, actor) => {
    await handleAll(deps.store, parts, meta(actor));
  },
};

const started = performance.now();
const before = (await readChainHead(database.db)).position;
const admin = randomUUID();
await generatedUser(run, 'admin', admin);
await run.one(settingsAggregate, SETTINGS_ID, { type: 'setPricing', ...PRICING }, admin).catch(() => undefined);
let next = 0;
let position = before;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (position - before < target) {
      await generatedDeal(run, next++, admin);
      position = (await readChainHead(database.db)).position;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(
  `${database.backend}: appended ${position - before} events in ${seconds.toFixed(1)} s (${Math.round((position - before) / seconds)} events/s through the command handlers); log now holds ${position}`,
);
await database.close();
