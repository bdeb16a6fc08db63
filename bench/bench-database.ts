import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../app-server/db/database.ts';
import { migrateToLatest } from '../app-server/db/migrate.ts';

/**
 * A fresh, migrated database for one benchmark run: a new database on the PostgreSQL server at `backend` (dropped
 * at the end), or an in-memory PGlite when `backend` is null. Said by every caller: a default taken from the
 * environment once turned a PGlite pass (`undefined`) into a second PostgreSQL one.
 */
export async function withBenchDatabase<T>(
  work: (handle: DatabaseHandle, url?: string) => Promise<T>,
  backend: string | null,
): Promise<T> {
  if (!backend) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(handle.db);
    try {
      return await work(handle);
    } finally {
      await handle.close();
    }
  }
  const name = `escrow_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: backend });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(backend);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  try {
    await migrateToLatest(handle.db);
    return await work(handle, url.toString());
  } finally {
    await handle.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
