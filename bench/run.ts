/**
 * `npm run bench`: every benchmark of the product against a baseline measured in the same run on this machine,
 * written to bench/RESULTS.md and bench/results.json. Each benchmark seeds its own data in a fresh database:
 * PostgreSQL at BENCH_DATABASE_URL (default the local server), PGlite in memory or in a scratch directory.
 *   npm run bench [-- --only append,api,log,start,web,tlog] [--seconds 10] [--events 1000000] [--profile DIR]
 * `--events` smaller than a million gives a quick trial whose figures are not the ones the goals speak of;
 * `--profile DIR` makes the API server write a CPU profile (node --cpu-prof) there. Each figure is measured RUNS
 * (3) times, each time next to its own baseline; the median is judged and the spread reported (results.ts).
 * BENCH_PORT_BASE puts the servers it starts in the 50 ports from there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../app-server/db/database.ts';
import { migrateToLatest } from '../app-server/db/migrate.ts';
import { commandsPerSecond, rawInsertsPerSecond } from './append.ts';
import { apiBenchmarks } from './api.ts';
import { withBenchDatabase } from './bench-database.ts';
import { logWalkInChild } from './log-walk.ts';
import { commandPeaks, type PeakRss, pgliteFootprint, serverPeak } from './memory.ts';
import { benchPort } from './ports.ts';
import {
  type BenchResult,
  checkResult,
  informational,
  limitOfRuns,
  limitResult,
  printResult,
  RUNS,
  ratioOfRuns,
  repeated,
  writeResults,
} from './results.ts';
import { seedBulk } from './seed-bulk.ts';
import { transparencyBenchmarks } from './transparency.ts';
import { chromiumPath, ESCROW_ROUTE, measureRoutes } from './web-size.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'append,api,log,start,web,tlog' },
    seconds: { type: 'string', default: '10' },
    events: { type: 'string', default: '1000000' },
    profile: { type: 'string' },
  },
});
const only = new Set(values.only!.split(','));
const seconds = Number(values.seconds);
const events = Number(values.events);
const postgres = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchDir = new URL('.', import.meta.url).pathname;

if (only.has('web')) chromiumPath(); // before the long benchmarks, not after them

// Every server and command this run starts names the log alike, whatever port it listens on.
process.env.TRANSPARENCY_ORIGIN ??= 'bench.escrow.example/log';

const results: BenchResult[] = [];
const add = (r: BenchResult) => {
  printResult(r);
  results.push(r);
};
const step = (title: string) => console.log(`\n== ${title} (${new Date().toISOString().slice(11, 19)})`);
/** The 16-client raw INSERT under the chain-head lock, one per run: the baseline of the append and the creation. */
let lockedInsertBaselines: number[] | undefined;

if (only.has('append')) {
  for (const backend of [postgres, null]) {
    await withBenchDatabase(async (handle) => {
      step(`append on ${handle.backend}, ${RUNS} runs`);
      // Each run measures its baseline right before its figure, so both see the same machine.
      const runs = await repeated(async () => {
        const raw1 = await rawInsertsPerSecond(handle, 1, seconds, false);
        const one = await commandsPerSecond(handle, 1, seconds);
        const raw16 = await rawInsertsPerSecond(handle, 16, seconds, true);
        const sixteen = await commandsPerSecond(handle, 16, seconds);
        const raw16Free = await rawInsertsPerSecond(handle, 16, seconds, false);
        return { raw1, one, raw16, sixteen, raw16Free };
      });
      const of = (key: keyof (typeof runs)[number]) => runs.map((r) => r[key]);
      const pglite = handle.backend === 'pglite';
      add(ratioOfRuns(`append, 1 writer (${handle.backend})`, 'commands/s', of('one'), of('raw1'), pglite ? 0 : 0.55));
      add(
        ratioOfRuns(
          `append, 16 writers (${handle.backend})`,
          'commands/s',
          of('sixteen'),
          of('raw16'),
          pglite ? 0 : 1.5,
        ),
      );
      add(
        ratioOfRuns(
          `append, 16 writers against 16 raw INSERTs without a lock (${handle.backend})`,
          'commands/s',
          of('sixteen'),
          of('raw16Free'),
          pglite ? 0 : 1.0,
        ),
      );
      if (handle.backend === 'postgres') lockedInsertBaselines = of('raw16');
    }, backend);
  }
}

if (only.has('api')) {
  await withBenchDatabase(async (handle) => {
    step(`API under autocannon -c 32 on postgres, ${RUNS} runs of each load`);
    lockedInsertBaselines ??= await repeated(() => rawInsertsPerSecond(handle, 16, seconds, true));
    const api = await apiBenchmarks(handle.location, seconds, values.profile);
    const rate = (figures: { perSecond: number }[]) => figures.map((f) => f.perSecond);
    const p99 = (figures: { p99Ms: number }[]) => figures.map((f) => f.p99Ms);
    add(ratioOfRuns('GET /api/reviews (100,000 reviews)', 'req/s', rate(api.reviews), rate(api.primaryKey), 0.7));
    add(limitOfRuns('GET /api/reviews p99', 'ms', p99(api.reviews), { below: 50 }));
    add(ratioOfRuns('GET /api/escrows (50 of 100,000)', 'req/s', rate(api.escrows), rate(api.primaryKey), 0.8));
    add(limitOfRuns('GET /api/escrows p99', 'ms', p99(api.escrows), { below: 50 }));
    add(ratioOfRuns('POST /api/escrows', 'req/s', rate(api.create), lockedInsertBaselines, 0.5));
    add(limitOfRuns('POST /api/escrows p99', 'ms', p99(api.create), { below: 50 }));
  }, postgres);
}

if (only.has('log')) {
  await withBenchDatabase(async (handle, url) => {
    step(`${events} events on postgres: seed, keyset read, replay, export, verify-export`);
    const started = performance.now();
    const seeded = await seedBulk(handle.db, events, 200, progress(started));
    console.log(
      `  seeded ${seeded.events} events (${seeded.deals} deals) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const out = join(tmpdir(), `escrow-bench-${process.pid}.ndjson`);
    try {
      const walks = await repeated(() => logWalkInChild(url!, out));
      const of = (key: keyof (typeof walks)[number]) => walks.map((w) => Number(w[key]));
      add(
        ratioOfRuns(
          `replay, ${walks[0]!.events} events`,
          'events/s',
          of('replayEventsPerSecond'),
          of('keysetRowsPerSecond'),
          0.5,
        ),
      );
      add(
        checkResult(
          'replay equals the live read models',
          walks.every((w) => w.replayMatch),
          'match',
        ),
      );
      add(
        ratioOfRuns(
          `export, ${walks[0]!.events} events`,
          'events/s',
          of('exportEventsPerSecond'),
          of('keysetRowsPerSecond'),
          0.7,
        ),
      );
      add(limitOfRuns('export: server peak RSS', 'MB', of('exportPeakRssMb'), { below: 200 }));
      add(ratioOfRuns('verify-export', 'events/s', of('verifyEventsPerSecond'), of('readAndParseLinesPerSecond'), 0.3));
    } finally {
      rmSync(out, { force: true });
    }
    step(`peak RSS of the server and each CLI command, ${events} events on postgres`);
    for (const peak of [
      await serverPeak({ DATABASE_URL: url, DATA_DIR: tmpdir() }, benchPort(4100, 100)),
      ...(await commandPeaks({ DATABASE_URL: url }, postgres)),
    ])
      addPeak(peak, 'postgres', 0);
  }, postgres);
}

if (only.has('start')) {
  step(`npm start on PGlite holding ${events} events`);
  const dataDir = mkdtempSync(join(tmpdir(), 'escrow-bench-start-'));
  try {
    const database = await openDatabase({ dataDir });
    try {
      await migrateToLatest(database.db);
      const started = performance.now();
      const seeded = await seedBulk(database.db, events, 200, progress(started));
      console.log(
        `  seeded ${seeded.events} events into PGlite in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    } finally {
      await database.close();
    }
    await timeStart(dataDir); // the first start builds what is stale; the figure is the next one
    add(
      limitOfRuns(
        `npm start to /api/ready, ${events} events in PGlite`,
        's',
        await repeated(() => timeStart(dataDir)),
        { below: 3 },
      ),
    );
    step(`peak RSS of the server and each CLI command, ${events} events in PGlite`);
    const footprint = await pgliteFootprint(dataDir);
    add(
      limitResult(
        `PGlite's idle footprint (a process that opens the store), ${events} events`,
        'MB',
        footprint.peakRssMb,
        {},
      ),
    );
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    for (const peak of [await serverPeak(env, benchPort(4100, 100)), ...(await commandPeaks(env))])
      addPeak(peak, 'PGlite', footprint.peakRssMb);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (only.has('web')) {
  step('web: what Chromium downloads');
  const [landing, admin, escrow] = await measureRoutes(['/', '/admin', ESCROW_ROUTE]);
  add(
    limitResult(
      `landing route JS + CSS, as received (${landing!.encodings.join(', ')})`,
      'KB',
      (landing!.js_bytes + landing!.css_bytes) / 1024,
      { below: 150 },
    ),
  );
  add(
    limitResult(
      `escrow page with its payment dialog JS + CSS, as received (${escrow!.encodings.join(', ')})`,
      'KB',
      (escrow!.js_bytes + escrow!.css_bytes) / 1024,
      { below: 200 },
    ),
  );
  add(
    checkResult(
      'landing loads no escrow code',
      landing!.files.filter((f) => /escrow|dashboard|qrcode|browser-/i.test(f)).length === 0,
      'no escrow chunk',
    ),
  );
  const adminFiles = (files: string[]) => files.filter((f) => /admin/i.test(f));
  console.log(`  /admin loads ${admin!.files.length} files, ${adminFiles(admin!.files).length} of them admin chunks`);
  add(checkResult('landing loads no admin console code', adminFiles(landing!.files).length === 0, 'no admin chunk'));
  add(
    checkResult(
      'no request to another host',
      [landing, admin, escrow].every((w) => w!.foreign_requests.length === 0),
      'none',
    ),
  );
}

if (only.has('tlog')) {
  step(`transparency log: append with the tree, proofs at ${events} leaves, checkpoint signing, on postgres`);
  for (const result of await transparencyBenchmarks(postgres, seconds, events)) add(result);
}

/**
 * A process's peak RSS against 256 MB (above `base`, PGlite's own footprint, on PGlite, and the memory the command
 * needs by design); a failed run misses it.
 */
function addPeak(peak: PeakRss, backend: string, base: number) {
  const limit = Math.round(base + 256 + (peak.allowanceMb ?? 0));
  const result = limitResult(`peak RSS: ${peak.name} (${backend})`, 'MB', peak.peakRssMb, { below: limit });
  add(peak.exitCode === 0 ? result : { ...result, met: false, goal: `${result.goal} (exit ${peak.exitCode})` });
}

/** Prints the seeding's progress every 30 s. */
function progress(started: number) {
  let last = started;
  return (appended: number) => {
    if (performance.now() - last < 30_000) return;
    last = performance.now();
    console.log(`  ${appended} events, ${Math.round(appended / ((last - started) / 1000))} events/s`);
  };
}

function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...rest } = env;
  return rest;
}

/** Seconds from `npm start` to the first 200 of /api/ready; the server is stopped again afterwards. */
async function timeStart(dataDir: string): Promise<number> {
  const port = benchPort(4100, 100);
  const started = performance.now();
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...withoutDatabaseUrl(process.env), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    for (;;) {
      if (
        await fetch(`http://127.0.0.1:${port}/api/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return (performance.now() - started) / 1000;
      if (performance.now() - started > 300_000) throw new Error('npm start did not become ready in 5 minutes');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await storeReleased(dataDir);
  }
}

/**
 * Waits until no process holds the PGlite store: npm exits on SIGTERM at once, the server it started only once it
 * has shut down (its last catch-up and the store closed), and the next start would find the store locked.
 */
async function storeReleased(dataDir: string): Promise<void> {
  const lock = join(dataDir, 'pglite.lock');
  for (const started = performance.now(); performance.now() - started < 600_000;) {
    const pid = existsSync(lock) ? Number(readFileSync(lock, 'utf8').trim()) : 0;
    if (!pid || !isAlive(pid)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server started by npm start still holds ${dataDir} after 10 minutes`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const context = [
  `Run ${new Date().toISOString()} on ${process.platform}, Node ${process.version}, ${cpus().length} cores (load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' / ',
    )}); PostgreSQL at ${new URL(postgres).host}; ${events} events for the log benchmarks; ${seconds} s per load.`,
  'Goals apply to PostgreSQL, the production backend; the PGlite rows of the append benchmark are for comparison (one connection in this process: its "16 writers" take turns).',
];
if (only.size === 6 && events >= 1_000_000) writeResults(benchDir, results, context);
else console.log('\n(a partial or quick run: bench/RESULTS.md and results.json left as they were)');
const goals = results.filter((r) => !informational(r));
const missed = goals.filter((r) => !r.met);
console.log(
  `\n${goals.length - missed.length} of ${goals.length} goals met${missed.length ? `; missed: ${missed.map((r) => r.name).join('; ')}` : ''}`,
);
