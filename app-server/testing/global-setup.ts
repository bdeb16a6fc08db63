import { redactUrl } from '../db/database.ts';
import { startPostgresContainer } from './test-database.ts';

/**
 * The suite's global set-up (vitest.config.ts), run once before any test file: says which backend the run uses.
 * PostgreSQL at TEST_DATABASE_URL; else a container when a Docker engine answers, one for the whole run (the test
 * files reach it through TEST_DATABASE_URL, set here); else an in-memory PGlite per test file.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const say = (line: string) => process.stdout.write(`\nTest database: ${line}\n\n`);
  if (process.env.TEST_DATABASE_URL) {
    say(`PostgreSQL at ${redactUrl(process.env.TEST_DATABASE_URL)} (TEST_DATABASE_URL), a fresh database per test file`);
    return async () => {};
  }
  const container = await startPostgresContainer();
  if (container) {
    process.env.TEST_DATABASE_URL = container.url;
    say(`PostgreSQL in a container at ${redactUrl(container.url)}, a fresh database per test file`);
    return async () => {
      delete process.env.TEST_DATABASE_URL;
      await container.stop();
    };
  }
  // No container here: the test files need not look for one again.
  process.env.TESTCONTAINERS = 'off';
  say('PGlite in memory, one per test file; the PostgreSQL-only tests are skipped (set TEST_DATABASE_URL to run them)');
  return async () => {};
}
