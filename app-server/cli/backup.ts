import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { DatabaseHandle } from '../db/database.ts';
import type { Progress } from './progress.ts';
import { contentBytes, tarDirectory } from './tar-stream.ts';

/** `escrow-pglite-20261125-193000.tar.gz` or `escrow-postgres-20261125-193000.dump`: what doctor looks for. */
export const BACKUP_FILE = /^escrow-(pglite|postgres)-\d{8}-\d{6}\.(tar\.gz|dump)$/;

const stamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

export interface BackupResult {
  file: string;
  bytes: number;
}

type StartProgress = (unit: string, total?: number) => Progress;

/**
 * A consistent backup of the store into `dir`, written to a `.partial` file and renamed when complete (owner-only,
 * 0600: it holds password hashes and sealed TOTP secrets). PGlite: the engine is shut down cleanly while this process
 * keeps the data directory's lock, and the directory is streamed as a gzipped tar (memory stays flat); the handle is
 * closed by then. PostgreSQL: `pg_dump --format=custom`, which copies from one snapshot while the servers run.
 */
export async function backupStore(
  database: DatabaseHandle,
  dir: string,
  progress: StartProgress,
  now = new Date(),
): Promise<BackupResult> {
  await mkdir(dir, { recursive: true });
  const file = resolve(
    join(dir, `escrow-${database.backend}-${stamp(now)}.${database.backend === 'pglite' ? 'tar.gz' : 'dump'}`),
  );
  const partial = `${file}.partial`;
  try {
    if (database.backend === 'pglite') await tarPglite(database, partial, progress);
    else await pgDump(database.location, partial, progress);
    await chmod(partial, 0o600);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { file, bytes: (await stat(file)).size };
}

async function tarPglite(database: DatabaseHandle, file: string, startProgress: StartProgress): Promise<void> {
  if (!database.holdFiles) throw new Error('this PGlite store has no files to back up');
  const dir = await database.holdFiles();
  const progress = startProgress('bytes', await contentBytes(dir));
  await pipeline(
    Readable.from(tarDirectory(dir, (n) => progress.add(n))),
    createGzip({ level: 6 }),
    createWriteStream(file, { mode: 0o600 }),
  );
  progress.finish();
}

/**
 * pg_dump of the database behind `url`. The URL's password goes to pg_dump in its environment (PGPASSWORD), not
 * on its command line where `ps` shows it. Progress is the dump file's size (its final size is not known ahead).
 */
async function pgDump(url: string, file: string, startProgress: StartProgress): Promise<void> {
  const target = new URL(url);
  const password = decodeURIComponent(target.password);
  target.password = '';
  const progress = startProgress('bytes');
  const child = spawn('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${target.toString()}`], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const poll = setInterval(() => {
    stat(file).then(
      (s) => progress.update(s.size),
      () => undefined,
    );
  }, 250);
  try {
    const code = await new Promise<number | null>((done, fail) => {
      child.on('error', (error: NodeJS.ErrnoException) =>
        fail(
          error.code === 'ENOENT'
            ? new Error('pg_dump is not installed (Debian: apt-get install postgresql-client)')
            : error,
        ),
      );
      child.on('close', done);
    });
    if (code !== 0)
      throw new Error(
        `pg_dump failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`,
      );
    progress.update((await stat(file)).size);
    progress.finish();
  } finally {
    clearInterval(poll);
  }
}

/** The newest backup file in `dir` and when it was written, or null when there is none (or no such directory). */
export async function newestBackup(dir: string): Promise<{ file: string; at: Date } | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  let newest: { file: string; at: Date } | null = null;
  for (const name of names.filter((n) => BACKUP_FILE.test(n))) {
    const at = (await stat(join(dir, name))).mtime;
    if (!newest || at > newest.at) newest = { file: join(dir, name), at };
  }
  return newest;
}
