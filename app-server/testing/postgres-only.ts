import { describe } from 'vitest';
import { testBackend } from './test-database.ts';

/** Whether this run's test databases are PostgreSQL (TEST_DATABASE_URL or a container) rather than PGlite. */
export const onPostgres = (await testBackend()) === 'postgres';

/** Why a PostgreSQL-only block is skipped, shown in its name so a skipped run says so. */
export const POSTGRES_ONLY_REASON =
  'skipped: needs PostgreSQL (PGlite has one connection, so nothing runs concurrently); set TEST_DATABASE_URL';

/**
 * A describe block that runs on PostgreSQL only: the races and outages it tests cannot happen on PGlite. When it
 * is skipped, its name carries the reason, so the skip is visible in the report (and CI's PostgreSQL pass, which
 * must skip nothing, counts it).
 */
export function describeOnPostgres(name: string, body: () => void): void {
  if (onPostgres) describe(name, body);
  else describe.skip(`${name} (${POSTGRES_ONLY_REASON})`, body);
}
