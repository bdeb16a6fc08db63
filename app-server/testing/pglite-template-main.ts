import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Database } from '../db/schema.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { pgliteStoreTemplate } from '../build.mjs';

/**
 * `node --liftoff-only --import tsx pglite-template-main.ts DIR`: creates a PGlite data directory at DIR
 * and migrates it, in a process of its own (database-templates.ts), so that the test runner's process never holds
 * the engine. Test settings are appended to its postgresql.conf.
 */
const [location, conf] = process.argv.slice(2);
if (!location || conf === undefined) throw new Error('usage: pglite-template-main.ts DIR POSTGRESQL_CONF_LINES');
mkdirSync(location, { recursive: true });
// From the store template when there is one (global-setup.ts makes it), else by initdb.
const fromTemplate = existsSync(pgliteStoreTemplate)
  ? { loadDataDir: new Blob([readFileSync(pgliteStoreTemplate)]) }
  : {};
const db = new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create(location, fromTemplate)) });
try {
  await migrateToLatest(db);
} finally {
  await db.destroy();
}
appendFileSync(`${location}/postgresql.conf`, conf);
