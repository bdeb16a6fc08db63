/**
 * Peak RSS of the server and of each CLI command on a seeded store, each run as an operator runs it (its own
 * process): the figure a small server's memory must hold. Peaks are the kernel's high-water mark (VmHWM), read
 * every 25 ms until the process ends. On PGlite the engine's own idle footprint (a process that only opens the
 * store) is measured too: the goal there is what a command needs above it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildBundlesIfStale } from '../app-server/build.mjs';

const root = new URL('..', import.meta.url).pathname;

export interface PeakRss {
  name: string;
  peakRssMb: number;
  seconds: number;
  exitCode: number | null;
  /** Memory the command needs by design, allowed above the common limit (a password hash's scrypt buffer). */
  allowanceMb?: number;
}

const highWaterMb = (pid: number) => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0; // ended between two samples
  }
};

/** Runs `args` with `env` to its end, sampling its high-water mark. */
export async function peakOf(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  finishedCodes: readonly number[] = [0],
): Promise<PeakRss> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-2_000)));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, highWaterMb(child.pid!))), 25);
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const finished = exitCode !== null && finishedCodes.includes(exitCode);
  if (!finished) console.log(`  ${name} exited ${exitCode}: ${stderr.trim().split('\n').slice(-2).join(' ')}`);
  // A run that ended another way than it may (a crash, out of memory) reports its code; one that finished, 0.
  return { name, peakRssMb: peak, seconds: (performance.now() - started) / 1000, exitCode: finished ? 0 : exitCode };
}

/** A CLI command as `npm run cli` runs it: the CLI's bundle in plain node (built before the first is measured). */
const cli = (...args: string[]) => ['app-server/cli.mjs', ...args];

/**
 * A process that opens the PGlite store under `dataDir` as the app does, runs one query and stays idle 2 s: the
 * engine's footprint. Plain node, like the commands, so the difference is what a command adds.
 */
export function pgliteFootprint(dataDir: string): Promise<PeakRss> {
  const script = `const { PGlite } = await import('@electric-sql/pglite');
const d = await PGlite.create(${JSON.stringify(join(dataDir, 'pglite'))});
await d.query('SELECT position FROM chain_head');
await new Promise((r) => setTimeout(r, 2000));
await d.close();`;
  return peakOf('PGlite store opened, idle', ['--input-type=module', '-e', script], {});
}

/** The server (`npm start`'s process) from start to /api/ready and `idleSeconds` after. */
export async function serverPeak(env: NodeJS.ProcessEnv, port: number, idleSeconds = 5): Promise<PeakRss> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', 'app-server/start.mjs'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, highWaterMb(child.pid!))), 25);
  try {
    for (;;) {
      if (
        await fetch(`http://127.0.0.1:${port}/api/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (child.exitCode !== null || performance.now() - started > 300_000)
        throw new Error('the server did not become ready');
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    return {
      name: 'server (start, ready, idle)',
      peakRssMb: peak,
      seconds: (performance.now() - started) / 1000,
      exitCode: 0,
    };
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
  }
}

/**
 * Every long command on the store `env` points at (DATABASE_URL, or DATA_DIR for PGlite), then import-events and
 * seed-demo into new stores of the same backend. `adminUrl` (PostgreSQL) is where those new databases are made.
 */
export async function commandPeaks(env: NodeJS.ProcessEnv, adminUrl?: string): Promise<PeakRss[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'escrow-bench-memory-'));
  const made: string[] = [];
  const newStore = async (): Promise<NodeJS.ProcessEnv> => {
    const dataDir = mkdtempSync(join(scratch, 'store-'));
    if (!adminUrl) return { DATA_DIR: dataDir, DATABASE_URL: '' };
    const name = `escrow_bench_${randomBytes(5).toString('hex')}`;
    await admin(adminUrl, `CREATE DATABASE ${name}`);
    made.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
  };
  const file = join(scratch, 'export.ndjson');
  const peaks: PeakRss[] = [];
  await buildBundlesIfStale(); // so that no command's peak includes a build
  try {
    for (const [name, args] of [
      ['verify-chain', cli('verify-chain')],
      ['chain-head', cli('chain-head')],
      ['export-events', cli('export-events', '--out', file)],
      ['replay', cli('replay')],
      ['backup', cli('backup', '--out', join(scratch, 'backups'))],
    ] as const) {
      peaks.push(await peakOf(name, [...args], env));
    }
    // A bench store has problems for doctor to name (no admin with 2FA, no backup before the one above): exit 1.
    peaks.push(await peakOf('doctor', cli('doctor'), env, [0, 1]));
    peaks.push(await peakOf('import-events', cli('import-events', file), await newStore()));
    // seed-demo hashes a password at the production cost: scrypt's buffer, 128 * N * r bytes, is 128 MiB at 17.
    const seedDemo = await peakOf('seed-demo', cli('seed-demo'), { ...(await newStore()), PASSWORD_HASH_COST: '17' });
    peaks.push({ ...seedDemo, allowanceMb: (128 * 2 ** 17 * 8) / 2 ** 20 });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    for (const name of made) await admin(adminUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  return peaks;
}

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
