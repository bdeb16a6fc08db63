import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { DataDirLocked, lockDataDir } from './data-dir-lock.ts';

const root = new URL('../..', import.meta.url).pathname;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'escrow-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The id of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('the PGlite data directory belongs to one process', () => {
  it('refuses the CLI on the data directory of a running server, in one line naming the holder', async () => {
    const server = lockDataDir(join(dir, 'pglite.lock')); // as openDatabase takes it for a running server
    try {
      const cli = await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          'app-server/cli/main.ts',
          'create-admin',
          '--username',
          'late',
          '--email',
          'late@example.com',
          '--password',
          'a long enough password',
        ],
        {
          cwd: root,
          env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        },
      ).then(
        () => ({ code: 0, stderr: '', stdout: '' }),
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      expect(cli.code).toBe(1);
      expect(cli.stdout).not.toContain('created');
      expect(cli.stderr.trim().split('\n')).toEqual([
        `Failed: The data directory is in use by process ${process.pid} (lock file ${join(dir, 'pglite.lock')}); stop that process first, or set another DATA_DIR`,
      ]);
      expect(existsSync(join(dir, 'pglite'))).toBe(false); // refused before opening anything
    } finally {
      server.release();
    }
  }, 60_000);

  it('frees the lock on close, so the next process opens it', async () => {
    const database = await openDatabase({ dataDir: dir });
    expect(readFileSync(join(dir, 'pglite.lock'), 'utf8')).toBe(`${process.pid}\n`);
    await database.close();
    expect(existsSync(join(dir, 'pglite.lock'))).toBe(false);
  }, 120_000);

  it('takes over a lock left by a process that crashed', () => {
    const lockFile = join(dir, 'pglite.lock');
    writeFileSync(lockFile, `${deadPid()}\n`);
    const lock = lockDataDir(lockFile);
    expect(readFileSync(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses while the holder runs, and names it', () => {
    const lockFile = join(dir, 'pglite.lock');
    const holder = process.ppid; // a process that runs for as long as this test does
    writeFileSync(lockFile, `${holder}\n`);
    expect(() => lockDataDir(lockFile)).toThrow(DataDirLocked);
    expect(() => lockDataDir(lockFile)).toThrow(`in use by process ${holder}`);
    expect(readFileSync(lockFile, 'utf8')).toBe(`${holder}\n`);
  });

  it('is freed when the holding process exits without closing', () => {
    const lockFile = join(dir, 'pglite.lock');
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('./app-server/db/data-dir-lock.ts').then((m) => { m.lockDataDir(${JSON.stringify(lockFile)}); process.exit(0); })`,
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(child.status).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  }, 30_000);
});
