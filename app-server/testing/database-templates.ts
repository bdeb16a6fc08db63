import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

/**
 * Migrated databases made once per test run, which each test file copies instead of creating and migrating its own.
 *
 * PGlite: a new in-memory database ran initdb in WebAssembly, about 7 s of CPU per test file on these cores, against
 * about 1 s to open a copy of a migrated data directory on tmpfs (and 0.1 s to copy it). PostgreSQL: the server
 * clones a migrated database (`CREATE DATABASE … TEMPLATE`) instead of every file running every migration.
 * The global set-up (global-setup.ts) makes them and names them in these variables; a test file run without it (its
 * own config, or a tool's) falls back to a fresh database.
 */
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const PGLITE_TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'TEST_POSTGRES_TEMPLATE';

/**
 * Tests' PGlite settings, written into the template's postgresql.conf. PGlite starts by clearing its shared buffers:
 * 128 MB of them (the default) cost more CPU than everything else of opening a copy, and a test database is a few MB.
 */
const TEST_PGLITE_CONF = '\n# Test databases: see app-server/testing/database-templates.ts\nshared_buffers = 16MB\n';

/** Memory-backed when the system has one (Linux's /dev/shm): copies and their writes never touch a disk. */
function scratchRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/**
 * Makes the run's migrated PGlite data directory, in a child process (pglite-template-main.ts) with the test workers'
 * WebAssembly compiler (vitest.config.ts); `remove` deletes it with every copy made from it.
 */
export async function makePgliteTemplate(): Promise<{ dir: string; remove: () => void }> {
  const runDir = mkdtempSync(join(scratchRoot(), 'escrow-tests-'));
  const remove = () => rmSync(runDir, { recursive: true, force: true });
  const dir = join(runDir, 'template', 'pglite');
  const main = fileURLToPath(new URL('./pglite-template-main.ts', import.meta.url));
  try {
    await promisify(execFile)(process.execPath, ['--liftoff-only', '--import', 'tsx', main, dir, TEST_PGLITE_CONF], {
      cwd: REPO_ROOT,
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

/**
 * A fresh copy of the template beside it, as a data directory for `openDatabase`; `remove` deletes it (the run's
 * `remove` deletes what a crashed test file left).
 */
export function copyPgliteTemplate(template: string): { dataDir: string; remove: () => void } {
  const dataDir = mkdtempSync(join(template, '..', '..', 'copy-'));
  cpSync(template, join(dataDir, 'pglite'), { recursive: true });
  return { dataDir, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Runs one statement on the server's maintenance connection. */
export async function onServer(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** The URL of database `name` on the server at `url`. */
export function databaseUrl(url: string, name: string): string {
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return dbUrl.toString();
}

/** Makes the run's migrated template database on the server at `url`; `remove` drops it. */
export async function makePostgresTemplate(url: string): Promise<{ name: string; remove: () => Promise<void> }> {
  const name = `escrow_template_${randomBytes(6).toString('hex')}`;
  const remove = () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await onServer(url, `CREATE DATABASE ${name}`);
  try {
    // One connection, closed before any copy: PostgreSQL copies only a database nobody is connected to.
    const handle = await openDatabase({ databaseUrl: databaseUrl(url, name), poolSize: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { name, remove };
}
