import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.ts';
import { buildBundlesIfStale } from '../build.mjs';

/**
 * The command line as an operator runs it: each test spawns `npm run cli`'s `node app-server/cli.mjs` (the CLI's
 * bundle, built first when stale, with verify-export's worker beside it) on a store of its own (PGlite
 * in a scratch directory, or a new PostgreSQL database when TEST_DATABASE_URL is set), with stdout and stderr
 * pipes (no terminal: progress comes as plain lines).
 */
const root = new URL('../..', import.meta.url).pathname;
const serverUrl = process.env.TEST_DATABASE_URL;
const backend = serverUrl ? 'postgres' : 'pglite';
let scratch: string;
const databases: string[] = [];

interface Store {
  env: Record<string, string>;
  url?: string;
}

async function newStore(): Promise<Store> {
  const dataDir = mkdtempSync(join(scratch, 'store-'));
  const env = { DATA_DIR: dataDir, BACKUP_DIR: join(dataDir, 'backups'), DATABASE_URL: '' };
  if (!serverUrl) return { env };
  const name = `escrow_cli_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  databases.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { env: { ...env, DATABASE_URL: url.toString() }, url: url.toString() };
}

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(store: Store | null, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['app-server/cli.mjs', ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          LOG_LEVEL: 'silent',
          PASSWORD_HASH_COST: '10',
          BITCOIN_NETWORK: 'regtest',
          SMTP_URL: '',
          ...(store?.env ?? { DATA_DIR: join(scratch, 'unused'), DATABASE_URL: '' }),
        },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'escrow-cli-'));
  await buildBundlesIfStale(); // once, before the tests' time limits start
}, 120_000);
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  for (const name of databases) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

const COMMANDS = [
  'migrate',
  'replay',
  'verify-chain',
  'export-events',
  'verify-export',
  'chain-head',
  'create-admin',
  'import-events',
  'backup',
  'seed-demo',
  'setup-link',
  'doctor',
  'reset-password',
];

describe('help', () => {
  it('lists every command with --help, -h and help, exit 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const { code, stdout } = await cli(null, flag);
      expect(code).toBe(0);
      for (const name of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
  }, 180_000);

  it("gives each command's own usage with --help, exit 0, without opening a store", async () => {
    for (const name of ['verify-chain', 'export-events', 'backup', 'doctor', 'import-events']) {
      const { code, stdout } = await cli(null, name, '--help');
      expect(code, name).toBe(0);
      expect(stdout).toContain(`Usage: npm run cli -- ${name}`);
    }
    expect((await cli(null, 'help', 'replay')).stdout).toContain('Usage: npm run cli -- replay [--swap]');
  }, 180_000);

  it('answers an unknown option or a missing argument with the usage and exit 2', async () => {
    const unknown = await cli(null, 'verify-chain', '--fast');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--fast'");
    expect(unknown.stderr).toContain('Usage: npm run cli -- verify-chain');
    const missing = await cli(null, 'export-events');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--out FILE is required');
  }, 60_000);
});

describe(`a new store (${backend})`, () => {
  let store: Store;
  beforeAll(async () => {
    store = await newStore();
  });

  it('is never migrated by a command that only reads: each says so and stops', async () => {
    for (const args of [
      ['verify-chain'],
      ['chain-head'],
      ['export-events', '--out', join(scratch, 'never.ndjson')],
      ['backup'],
    ]) {
      const { code, stderr, stdout } = await cli(store, ...args);
      expect(code, args[0]).toBe(1);
      expect(stderr).toContain(
        `REFUSED: the store has ${Object.keys(migrations).length} migration(s) pending (0001_event_store,`,
      );
      expect(stderr).toContain('does not apply them: run npm run cli -- migrate first');
      expect(stdout).toBe('');
    }
    // Still nothing applied: doctor finds every migration pending.
    const doctor = await cli(store, 'doctor', '--json');
    const report = JSON.parse(doctor.stdout) as {
      ok: boolean;
      findings: { check: string; verdict: string; detail: string }[];
    };
    expect(report.findings.find((f) => f.check === 'migrations')?.detail).toContain(
      `${Object.keys(migrations).length} pending`,
    );
  }, 300_000);

  it('doctor --json names every missing piece at once, exit 1', async () => {
    const { code, stdout } = await cli(store, 'doctor', '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      ok: boolean;
      findings: { check: string; verdict: string; detail: string; fix?: string }[];
    };
    expect(report.ok).toBe(false);
    const verdicts = Object.fromEntries(report.findings.map((f) => [f.check, f.verdict]));
    expect(verdicts).toMatchObject({
      migrations: 'problem',
      admins: 'problem',
      'BTC rate': 'problem',
      'address pool': 'problem',
      SMTP: 'warning',
      backup: 'warning',
    });
    for (const finding of report.findings.filter((f) => f.verdict !== 'ok'))
      expect(finding.fix, finding.check).toBeTruthy();
    expect(report.findings.find((f) => f.check === 'backup')?.detail).toBe(`no backup in ${store.env.BACKUP_DIR}`);
  }, 60_000);

  it('migrate names each migration it applied, then says it is up to date', async () => {
    const first = await cli(store, 'migrate');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`applied ${Object.keys(migrations).length} migration(s):`);
    for (const name of Object.keys(migrations)) expect(first.stdout).toContain(`  ${name}\n`);
    const second = await cli(store, 'migrate');
    expect(second.stdout).toContain(`migrations: up to date (${Object.keys(migrations).length} applied earlier)`);
    expect(second.stdout).not.toMatch(/^applied/m);
  }, 120_000);
});

describe(`long commands, backup and restore (${backend})`, () => {
  let store: Store;
  let head: string;
  beforeAll(async () => {
    store = await newStore();
    const seeded = await cli(store, 'seed-demo');
    expect(seeded.stderr).toMatch(/^seed-demo: \d+ calls in [\d.]+ (s|min)/m);
    expect(seeded.code).toBe(0);
    head = (await cli(store, 'chain-head')).stdout.trim();
    expect(head).toMatch(/^\d+:[0-9a-f]{64}$/);
  }, 240_000);

  it('verify-chain, replay and export-events report their progress on stderr, their answer on stdout', async () => {
    const events = Number(head.split(':')[0]);
    const verify = await cli(store, 'verify-chain');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain('chain: ok');
    expect(verify.stderr).toMatch(new RegExp(`^verify-chain: ${events} events in [\\d.]+ s, [\\d,]+ events/s$`, 'm'));
    const replay = await cli(store, 'replay');
    expect(replay.stdout).toContain('match');
    expect(replay.stderr).toMatch(new RegExp(`^replay: ${events} events in `, 'm'));
    const file = join(scratch, `export-${backend}.ndjson`);
    const exported = await cli(store, 'export-events', '--out', file);
    expect(exported.stdout).toContain(`exported ${events} events`);
    expect(exported.stderr).toMatch(new RegExp(`^export-events: ${events} events in `, 'm'));
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const checked = await cli(store, 'verify-export', file);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('chain: ok');
    // The hash of the third event changed: the chain check, on its worker thread, names that line.
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[3] = lines[3]!.replace(/"hash" : "(.)/, (_, c: string) => `"hash" : "${c === '0' ? '1' : '0'}`);
    writeFileSync(file, lines.join('\n'));
    const broken = await cli(store, 'verify-export', file);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('BROKEN at line 4: hash does not match the event content');
  }, 120_000);

  it('backs up, restores into a new store and finds the same chain head; doctor sees the fresh backup', async () => {
    const backup = await cli(store, 'backup');
    expect(backup.code).toBe(0);
    expect(backup.stderr).toMatch(/^backup: [\d.]+ MB in /m);
    const files = readdirSync(store.env.BACKUP_DIR!);
    expect(files).toHaveLength(1);
    const file = join(store.env.BACKUP_DIR!, files[0]!);
    expect(files[0]).toMatch(
      backend === 'pglite' ? /^escrow-pglite-\d{8}-\d{6}\.tar\.gz$/ : /^escrow-postgres-\d{8}-\d{6}\.dump$/,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const restored = await newStore();
    if (backend === 'pglite') {
      mkdirSync(join(restored.env.DATA_DIR!, 'pglite'));
      expect((await run('tar', ['-xzf', file, '-C', join(restored.env.DATA_DIR!, 'pglite')])).code).toBe(0);
    } else {
      const restore = await run('pg_restore', ['--no-owner', `--dbname=${restored.url!}`, file]);
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
    }
    expect((await cli(restored, 'chain-head')).stdout.trim()).toBe(head);
    const verify = await cli(restored, 'verify-chain');
    expect(verify.stdout).toContain('chain: ok');
    // Accounts came back too (not only the log): the demo admin is there.
    expect((await cli(restored, 'reset-password', '--username', 'admin')).code).toBe(0);

    const doctor = JSON.parse((await cli(store, 'doctor', '--json')).stdout) as {
      findings: { check: string; verdict: string; detail: string }[];
    };
    expect(doctor.findings.find((f) => f.check === 'backup')).toMatchObject({
      verdict: 'ok',
      detail: expect.stringContaining(file) as string,
    });
  }, 180_000);

  it('imports an export into an empty store with progress for both phases', async () => {
    const file = join(scratch, `for-import-${backend}.ndjson`);
    await cli(store, 'export-events', '--out', file);
    const target = await newStore();
    const imported = await cli(target, 'import-events', file);
    expect(imported.code).toBe(0);
    const events = head.split(':')[0];
    expect(imported.stderr).toMatch(new RegExp(`^import-events: load: ${events} events in `, 'm'));
    expect(imported.stderr).toMatch(new RegExp(`^import-events: rebuild: ${events} events in `, 'm'));
    expect(imported.stdout).toContain(`chain head: ${head}`);
  }, 120_000);
});
