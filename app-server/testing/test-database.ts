import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { PostgreSqlContainer as PostgreSqlContainerType } from '@testcontainers/postgresql';
import pg from 'pg';
import { GENESIS_HASH } from '../../domain/chain.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

/**
 * A fresh, migrated database for one test file. PostgreSQL when TEST_DATABASE_URL is set (a new database is
 * created on that server and dropped afterwards); else a PostgreSQL container when a Docker engine answers; else
 * an in-memory PGlite. The same suite runs on all three.
 */
export interface TestDatabase extends DatabaseHandle {
  /** Empties every table (events, read models, bookkeeping) and resets the chain, keeping the schema. */
  reset: () => Promise<void>;
  /** Drops what was created. */
  dispose: () => Promise<void>;
  /**
   * PostgreSQL only: the database's connection URL, password included (`location` hides it), for a test that
   * connects another way, e.g. through a proxy. Set on the container route too, where TEST_DATABASE_URL is not.
   */
  url?: string;
}

async function resetTables(handle: DatabaseHandle): Promise<void> {
  const tables = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%'`.execute(
    handle.db,
  );
  const names = tables.rows.map((r) => `"${r.tablename}"`).join(', ');
  // A job of the app under test (a mail or an alert it is still writing from the last test) can hold a lock on one
  // of these tables while TRUNCATE locks them all: PostgreSQL breaks the deadlock by failing one side. Try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.raw(`TRUNCATE ${names} RESTART IDENTITY`).execute(handle.db);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
  await handle.db.insertInto('chain_head').values({ id: 1, position: 0, hash: GENESIS_HASH }).execute();
  await handle.db.insertInto('tlog_state').values({ id: 1, size: 0 }).execute();
}

let containerUrl: Promise<string | null> | undefined;

async function startContainer(): Promise<string | null> {
  return (await startPostgresContainer())?.url ?? null;
}

/** A PostgreSQL container, or null when containers are off, cannot load here or no Docker engine answers. */
export async function startPostgresContainer(): Promise<{ url: string; stop: () => Promise<void> } | null> {
  if (process.env.TESTCONTAINERS === 'off') return null;
  let PostgreSqlContainer: typeof PostgreSqlContainerType;
  try {
    ({ PostgreSqlContainer } = await import('@testcontainers/postgresql'));
  } catch {
    // testcontainers cannot load on this Node (its HTTP client needs a newer one): no containers here.
    return null;
  }
  try {
    const container = await new PostgreSqlContainer('postgres:15-alpine').start();
    return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) };
  } catch (error) {
    // No Docker engine: "Could not find a working container runtime strategy" arrives within milliseconds.
    if (String((error as Error).message).includes('container runtime')) return null;
    throw error;
  }
}

async function serverUrl(): Promise<string | null> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  containerUrl ??= startContainer();
  return containerUrl;
}

export async function testBackend(): Promise<'postgres' | 'pglite'> {
  return (await serverUrl()) ? 'postgres' : 'pglite';
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const url = await serverUrl();
  if (!url) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(handle.db);
    return { ...handle, reset: () => resetTables(handle), dispose: handle.close };
  }
  const name = `escrow_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 20 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url: dbUrl.toString(),
    reset: () => resetTables(handle),
    dispose: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
