/**
 * The benchmarks that walk the whole log, on a store that already holds it (seed it with seed-bulk.ts):
 *   keyset read   rows/s of a plain keyset read of the events table (the baseline of replay and export)
 *   replay        events/s rebuilding every projection into scratch tables and comparing (no swap)
 *   export        events/s of GET /api/admin/events/export from a real server process, and that process's peak RSS
 *   verify        events/s of verify-export on that file, against reading and JSON-parsing the same file
 *
 *   DATABASE_URL=postgres://.../escrow_1m npx tsx bench/log-walk.ts [--out /tmp/events.ndjson]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { verifyExport } from '../app-server/audit/verify-export.ts';
import { openDatabase } from '../app-server/db/database.ts';
import type { Database } from '../app-server/db/schema.ts';
import { benchPort } from './ports.ts';
import { replayProjections } from '../app-server/replay.ts';

export interface LogWalkFigures {
  events: number;
  keysetRowsPerSecond: number;
  replayEventsPerSecond: number;
  replayMatch: boolean;
  exportEventsPerSecond: number;
  exportPeakRssMb: number;
  verifyEventsPerSecond: number;
  readAndParseLinesPerSecond: number;
}

/** Starts the line `--json` prints the figures on. */
export const FIGURES_LINE = 'log-walk figures: ';

/**
 * The log benchmarks in a process of their own, as an operator runs replay and verify-export: a fresh heap, not
 * one that has just seeded a million events and run the other benchmarks (the replay spends a quarter of its time
 * collecting garbage, which a heap full of another benchmark's leftovers makes dearer).
 */
export async function logWalkInChild(databaseUrl: string, out: string): Promise<LogWalkFigures> {
  const root = new URL('..', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/log-walk.ts', '--out', out, '--json'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let figures: LogWalkFigures | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith(FIGURES_LINE)) figures = JSON.parse(line.slice(FIGURES_LINE.length)) as LogWalkFigures;
    else console.log(`  ${line}`);
  }
  const code = await new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
  );
  if (code !== 0 || !figures) throw new Error(`the log benchmarks stopped (exit ${code}) without their figures`);
  return figures;
}

const seconds = (since: number) => (performance.now() - since) / 1000;

/** The baseline: the same events, read in pages of 2,000 by position, nothing else done with them. */
export async function keysetRead(db: Kysely<Database>): Promise<{ rows: number; perSecond: number }> {
  const started = performance.now();
  let after = 0;
  let rows = 0;
  for (;;) {
    const page = await db
      .selectFrom('events')
      .selectAll()
      .where('position', '>', after)
      .orderBy('position')
      .limit(2_000)
      .execute();
    if (!page.length) break;
    rows += page.length;
    after = Number(page.at(-1)!.position);
  }
  return { rows, perSecond: rows / seconds(started) };
}

async function readAndParse(path: string): Promise<number> {
  const started = performance.now();
  let lines = 0;
  for await (const line of createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    JSON.parse(line);
    lines++;
  }
  return lines / seconds(started);
}

const ADMIN = { username: 'benchadmin', password: 'bench admin password 1' };

/** A real server process on the store, started as `npm start` starts it; resolves once /api/ready answers. */
async function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const root = new URL('..', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--expose-gc', 'app-server/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: 'benchadmin@example.com',
      ADMIN_PASSWORD: ADMIN.password,
      PASSWORD_HASH_COST: '14',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become ready in 60 s');
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export async function exportThroughServer(databaseUrl: string, out: string, events: number) {
  const port = benchPort(3700, 200);
  const server = await startServer(databaseUrl, port);
  try {
    const base = `http://127.0.0.1:${port}/api`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const rssBefore = rssMb(server.pid!);
    // The server's resident memory, sampled every 50 ms while it streams.
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 50);
    const started = performance.now();
    try {
      const res = await fetch(`${base}/admin/events/export`, { headers: { authorization: `Bearer ${access_token}` } });
      if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
      await pipeline(Readable.fromWeb(res.body as WebReadableStream), createWriteStream(out));
    } finally {
      clearInterval(sampler);
    }
    return { perSecond: events / seconds(started), peakRssMb: peak, rssBeforeMb: rssBefore };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

export async function logWalk(databaseUrl: string, out: string): Promise<LogWalkFigures> {
  const database = await openDatabase({ databaseUrl, poolSize: 4 });
  let keyset: { rows: number; perSecond: number };
  let replay: Awaited<ReturnType<typeof replayProjections>>;
  try {
    // The store at rest, as a long-running one is: seeding leaves every table to vacuum and a checkpoint due,
    // which would otherwise run during whichever benchmark comes first.
    await sql`VACUUM ANALYZE`.execute(database.db);
    await sql`CHECKPOINT`.execute(database.db);
    keyset = await keysetRead(database.db);
    console.log(`keyset read: ${keyset.rows} rows, ${Math.round(keyset.perSecond)} rows/s`);
    replay = await replayProjections(database);
    console.log(
      `replay: ${replay.events} events, ${Math.round(replay.events / replay.seconds)} events/s, ${replay.match ? 'match' : 'MISMATCH'}`,
    );
  } finally {
    await database.close();
  }
  const exported = await exportThroughServer(databaseUrl, out, keyset.rows);
  console.log(
    `export: ${Math.round(exported.perSecond)} events/s, server RSS at most ${exported.peakRssMb.toFixed(0)} MB while exporting (${exported.rssBeforeMb.toFixed(0)} MB before)`,
  );
  const started = performance.now();
  const summary = await verifyExport(out);
  const verifyPerSecond = summary.events / seconds(started);
  console.log(
    `verify-export: ${summary.events} events, ${Math.round(verifyPerSecond)} events/s, chain ok, head ${summary.head.position}`,
  );
  const parse = await readAndParse(out);
  console.log(`read + JSON.parse of the file: ${Math.round(parse)} lines/s`);
  return {
    events: keyset.rows,
    keysetRowsPerSecond: keyset.perSecond,
    replayEventsPerSecond: replay.events / replay.seconds,
    replayMatch: replay.match,
    exportEventsPerSecond: exported.perSecond,
    exportPeakRssMb: exported.peakRssMb,
    verifyEventsPerSecond: verifyPerSecond,
    readAndParseLinesPerSecond: parse,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: '/tmp/escrow-events.ndjson' },
      'export-only': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL: the PostgreSQL store to walk');
  if (values['export-only']) {
    const e = await exportThroughServer(url, values.out!, 1_000_000);
    console.log(
      `export: ${Math.round(e.perSecond)} events/s (of a million), server RSS at most ${e.peakRssMb.toFixed(0)} MB while exporting (${e.rssBeforeMb.toFixed(0)} MB before)`,
    );
  } else {
    const figures = await logWalk(url, values.out!);
    if (values.json) console.log(`${FIGURES_LINE}${JSON.stringify(figures)}`);
  }
}
