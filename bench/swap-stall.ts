/**
 * How long a write waits while `replay --swap` runs: registers a generated user (two appends through the event store,
 * the sign-up and its e-mail check, each with the chain-head lock and every projection) every 200 ms on the store the
 * environment names, and prints the time of each pair and the slowest, until SIGINT or SIGTERM. Run it beside the swap:
 *
 *   npx tsx bench/swap-stall.ts &   npm run cli -- replay --swap;   kill %1
 */
import { loadConfig } from '../app-server/config.ts';
import { openDatabase } from '../app-server/db/database.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import { projections } from '../projections/registry.ts';
import { generatedUser } from './generated-history.ts';
import { bulkRunner } from './seed-bulk.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
const store = createEventStore(database.db, projections);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stopping = true));
const times: number[] = [];
while (!stopping) {
  const bulk = bulkRunner(database.db, store);
  await generatedUser(bulk.run, 'buyer');
  const started = performance.now();
  await bulk.flush();
  const ms = performance.now() - started;
  times.push(ms);
  console.log(`${new Date().toISOString().slice(11, 23)} append ${ms.toFixed(0)} ms`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
times.sort((a, b) => a - b);
console.log(
  `appends: ${times.length}, median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms, slowest ${times.at(-1)?.toFixed(0)} ms`,
);
await database.close();
