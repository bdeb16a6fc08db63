import { buildPgliteStoreTemplateIfStale } from '../build.mjs';
import { redactUrl } from '../db/database.ts';
import {
  makePgliteTemplate,
  makePostgresTemplate,
  PGLITE_TEMPLATE_ENV,
  POSTGRES_TEMPLATE_ENV,
} from './database-templates.ts';
import { startPostgresContainer } from './test-database.ts';

/**
 * The suite's global set-up (vitest.config.ts), run once before any test file: says which backend the run uses and
 * makes the migrated database every test file copies (database-templates.ts), named to the test files in the
 * environment. PostgreSQL at TEST_DATABASE_URL; else a container when a Docker engine answers, one for the whole run
 * (the test files reach it through TEST_DATABASE_URL, set here); else a PGlite per test file.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Every PGlite data directory the tests make (the CLI's and the servers' they start, the run's template below) is
  // unpacked from the template `npm run build` makes, as in the image: PGlite's initdb once per checkout instead of
  // about 5 s of CPU per store.
  buildPgliteStoreTemplateIfStale();
  const say = (line: string) => process.stdout.write(`\nTest database: ${line}\n\n`);
  if (process.env.TEST_DATABASE_URL) {
    say(
      `PostgreSQL at ${redactUrl(process.env.TEST_DATABASE_URL)} (TEST_DATABASE_URL), a fresh database per test file`,
    );
    return withPostgresTemplate(process.env.TEST_DATABASE_URL, async () => {});
  }
  const container = await startPostgresContainer();
  if (container) {
    process.env.TEST_DATABASE_URL = container.url;
    say(`PostgreSQL in a container at ${redactUrl(container.url)}, a fresh database per test file`);
    const stop = async () => {
      delete process.env.TEST_DATABASE_URL;
      await container.stop();
    };
    return withPostgresTemplate(container.url, stop).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
  }
  // No container here: the test files need not look for one again.
  process.env.TESTCONTAINERS = 'off';
  say('PGlite, a fresh copy per test file; the PostgreSQL-only tests are skipped (set TEST_DATABASE_URL to run them)');
  const template = await makePgliteTemplate();
  process.env[PGLITE_TEMPLATE_ENV] = template.dir;
  return async () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    template.remove();
  };
}

async function withPostgresTemplate(url: string, teardown: () => Promise<void>): Promise<() => Promise<void>> {
  const template = await makePostgresTemplate(url);
  process.env[POSTGRES_TEMPLATE_ENV] = template.name;
  return async () => {
    delete process.env[POSTGRES_TEMPLATE_ENV];
    await template.remove();
    await teardown();
  };
}
