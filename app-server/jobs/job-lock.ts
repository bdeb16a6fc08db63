import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';

/**
 * Runs `work` only if no other server process is running the same job: a session-level PostgreSQL advisory lock,
 * held on one pooled connection while `work` runs on the others. Answers null when another process holds it.
 * PGlite belongs to a single process, which `startPeriodic` already keeps to one run at a time.
 */
export async function withJobLock<T>(database: DatabaseHandle, key: number, work: () => Promise<T>): Promise<T | null> {
  if (database.backend === 'pglite') return work();
  return database.db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(conn);
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
