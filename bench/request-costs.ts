/**
 * What one request costs, split by who pays: the server process, PostgreSQL (all of its processes) and the load
 * generator (autocannon, in this process), in CPU microseconds per request, for the API benchmark's routes and for
 * requests that stop at each layer of the app. On two cores all three share the same CPUs, so a route's throughput
 * follows its total; these figures say where that total goes, and stay steadier from run to run than req/s do.
 *
 *   npx tsx bench/request-costs.ts [--seconds 5] [--rounds 5]   (PostgreSQL at BENCH_DATABASE_URL, a fresh database)
 *
 * Each route is loaded once unmeasured (the server's code warms up), then `rounds` times in turn; the medians print.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type ApiBench, withApiBench } from './api.ts';
import { withBenchDatabase } from './bench-database.ts';
import { clockTicksPerSecond, processTicks, ticksBetween, ticksOfProcessesNamed } from './cpu-ticks.ts';
import { median } from './results.ts';

interface Route {
  name: string;
  options: (bench: ApiBench) => Pick<autocannon.Options, 'url' | 'headers'>;
}

const signedIn = (bench: ApiBench) => ({ authorization: `Bearer ${bench.buyer}` });

/** From the least the app does to the benchmark's routes. */
const ROUTES: Route[] = [
  { name: 'GET /api/health (the app, no query)', options: (b) => ({ url: `${b.base}/api/health` }) },
  { name: 'GET /api/no-such-call (404 through every layer)', options: (b) => ({ url: `${b.base}/api/no-such-call` }) },
  {
    name: 'the same 404 with a session (its lookup)',
    options: (b) => ({ url: `${b.base}/api/no-such-call`, headers: signedIn(b) }),
  },
  {
    name: 'GET /bench/pk/:id (the baseline: one SELECT)',
    options: (b) => ({ url: `${b.base}/bench/pk/${b.reviewId}` }),
  },
  { name: 'GET /api/reviews', options: (b) => ({ url: `${b.base}/api/reviews` }) },
  { name: 'GET /api/escrows (50 escrows)', options: (b) => ({ url: `${b.base}/api/escrows`, headers: signedIn(b) }) },
];

interface Cost {
  perSecond: number;
  bytesPerAnswer: number;
  /** CPU microseconds per request. */
  server: number;
  postgres: number;
  loadGenerator: number;
}

async function measure(bench: ApiBench, route: Route, seconds: number): Promise<Cost> {
  const toMicros = 1e6 / clockTicksPerSecond();
  const serverBefore = processTicks(bench.server.pid!) ?? 0;
  const postgresBefore = ticksOfProcessesNamed('postgres');
  const ownBefore = process.cpuUsage();
  const result = await autocannon({ connections: 32, duration: seconds, ...route.options(bench) });
  const own = process.cpuUsage(ownBefore);
  const postgres = ticksBetween(postgresBefore, ticksOfProcessesNamed('postgres'));
  const server = (processTicks(bench.server.pid!) ?? 0) - serverBefore;
  const requests = result.requests.total || 1;
  return {
    perSecond: requests / (result.duration || seconds),
    bytesPerAnswer: result.throughput.total / requests,
    server: (server * toMicros) / requests,
    postgres: (postgres * toMicros) / requests,
    loadGenerator: (own.user + own.system) / requests,
  };
}

/** Loads every route once to warm up, then `rounds` times in turn; each route's medians. */
export async function requestCosts(bench: ApiBench, seconds: number, rounds: number): Promise<Map<Route, Cost>> {
  for (const route of ROUTES) await measure(bench, route, Math.min(seconds, 3));
  const runs = new Map<Route, Cost[]>(ROUTES.map((r) => [r, []]));
  for (let round = 0; round < rounds; round++)
    for (const route of ROUTES) runs.get(route)!.push(await measure(bench, route, seconds));
  return new Map(
    [...runs].map(([route, costs]) => [
      route,
      {
        perSecond: median(costs.map((c) => c.perSecond)),
        bytesPerAnswer: median(costs.map((c) => c.bytesPerAnswer)),
        server: median(costs.map((c) => c.server)),
        postgres: median(costs.map((c) => c.postgres)),
        loadGenerator: median(costs.map((c) => c.loadGenerator)),
      },
    ]),
  );
}

function costTable(costs: ReadonlyMap<Route, Cost>): string {
  const lines = [
    '| request | req/s | bytes an answer | server µs | PostgreSQL µs | load generator µs | all µs |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [route, c] of costs) {
    const all = c.server + c.postgres + c.loadGenerator;
    lines.push(
      `| ${route.name} | ${Math.round(c.perSecond)} | ${Math.round(c.bytesPerAnswer)} | ${Math.round(c.server)} | ${Math.round(c.postgres)} | ${Math.round(c.loadGenerator)} | ${Math.round(all)} |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '5' } },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new Error(`--seconds: a whole number of seconds, not ${values.seconds}`);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds: a whole number of loads, not ${values.rounds}`);
  const postgres = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  await withBenchDatabase(async (_handle, url) => {
    const costs = await withApiBench(url!, (bench) => requestCosts(bench, seconds, rounds));
    console.log(`\nCPU per request, medians of ${rounds} loads of ${seconds} s (autocannon -c 32):\n`);
    console.log(costTable(costs));
  }, postgres);
}
