import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { PostgreSqlContainer as PostgreSqlContainerType } from '@testcontainers/postgresql';
import { GENESIS_HASH } from '../../domain/chain.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import {
  copyPgliteTemplate,
  databaseUrl,
  onServer,
  PGLITE_TEMPLATE_ENV,
  POSTGRES_TEMPLATE_ENV,
} from './database-templates.ts';

/**
 * A fresh, migrated database for one test file. PostgreSQL when TEST_DATABASE_URL is set (a new database is
 * created on that server and dropped afterwards); else a PostgreSQL container when a Docker engine answers; else
 * PGlite. The same suite runs on all three. Each is a copy of the run's migrated template (database-templates.ts).
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

/**
 * Empties the tables that hold rows and restarts the tables' sequences: what TRUNCATE of every table with RESTART
 * IDENTITY leaves, for a fraction of its cost. TRUNCATE gives each table and index new files, a few ms each on
 * PGlite's file system, while a test fills a handful of the 36 tables; PGlite (a superuser session) deletes their
 * rows instead, with triggers off (the events table's append-only trigger among them) for this transaction only.
 * Under an exclusive lock on every table, taken first, so that nothing is written between the look and the emptying.
 */
async function resetTables(handle: DatabaseHandle): Promise<void> {
  const tables = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%'`.execute(handle.db);
  const names = tables.rows.map((r) => `"${r.tablename}"`);
  const anyRow = names.map((name) => `SELECT '${name}' AS name WHERE EXISTS (SELECT FROM ${name})`).join(' UNION ALL ');
  // A job of the app under test (a mail or an alert it is still writing from the last test) can hold a lock on one
  // of these tables while the reset locks them all: PostgreSQL breaks the deadlock by failing one side. Try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await handle.db.transaction().execute(async (trx) => {
        await sql.raw(`LOCK TABLE ${names.join(', ')} IN ACCESS EXCLUSIVE MODE`).execute(trx);
        const filled = (await sql<{ name: string }>`${sql.raw(anyRow)}`.execute(trx)).rows.map((r) => r.name);
        if (handle.backend === 'pglite') {
          await sql`SET LOCAL session_replication_role = replica`.execute(trx);
          for (const name of filled) await sql.raw(`DELETE FROM ${name}`).execute(trx);
        } else if (filled.length > 0) {
          // CASCADE: an empty table that references a filled one (attempts of queued deliveries) goes with it.
          await sql.raw(`TRUNCATE ${filled.join(', ')} CASCADE`).execute(trx);
        }
        const sequences = await sql<{ name: string }>`
          SELECT seq.oid::regclass::text AS name FROM pg_class seq
          JOIN pg_depend dep ON dep.objid = seq.oid AND dep.deptype IN ('a', 'i')
          JOIN pg_class tab ON tab.oid = dep.refobjid
          WHERE seq.relkind = 'S' AND tab.relnamespace = 'public'::regnamespace AND tab.relname NOT LIKE 'kysely_%'`.execute(
          trx,
        );
        for (const { name } of sequences.rows) await sql.raw(`ALTER SEQUENCE ${name} RESTART`).execute(trx);
      });
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
  if (!url) return openPglite();
  const name = `escrow_test_${randomBytes(6).toString('hex')}`;
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  await onServer(url, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const dbUrl = databaseUrl(url, name);
  const handle = await openDatabase({ databaseUrl: dbUrl, poolSize: 20 });
  if (!template) await migrateToLatest(handle.db);
  return {
    ...handle,
    url: dbUrl,
    reset: () => resetTables(handle),
    dispose: async () => {
      await handle.close();
      await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A copy of the run's migrated PGlite template (global-setup.ts), or else a new in-memory database, migrated. */
async function openPglite(): Promise<TestDatabase> {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(handle.db);
    return { ...handle, reset: () => resetTables(handle), dispose: handle.close };
  }
  const copy = copyPgliteTemplate(template);
  const handle = await openDatabase({ dataDir: copy.dataDir }).catch((error: unknown) => {
    copy.remove();
    throw error;
  });
  return {
    ...handle,
    reset: () => resetTables(handle),
    dispose: async () => {
      await handle.close();
      copy.remove();
    },
  };
}
