import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { testBackend } from '../testing/test-database.ts';

/**
 * deploy/app-role.sql on PostgreSQL: the server's role may read the log, write read models and migrate to nothing, but neither
 * change nor remove an event, nor switch the append-only trigger off. (PGlite has one role: nothing to test there.)
 */
const onPostgres = (await testBackend()) === 'postgres';
const role = `escrow_app_${randomBytes(4).toString('hex')}`;
let t: TestApp;
let owner: pg.Client;
let asApp: pg.Client;

/** deploy/app-role.sql as psql would run it with -v app_role=..., for the statements it holds. */
function roleSql(): string[] {
  const text = readFileSync(fileURLToPath(new URL('../../deploy/app-role.sql', import.meta.url)), 'utf8');
  return text
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .split(/;|\\gexec/)
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('SELECT format'))
    .map((s) => s.replaceAll(':"app_role"', `"${role}"`));
}

beforeAll(async () => {
  if (!onPostgres) return;
  t = await openTestApp();
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const dbName = (
    await t.database.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()
  ).name;
  url.pathname = `/${dbName}`;
  owner = new pg.Client({ connectionString: url.toString() });
  await owner.connect();
  await owner.query(`CREATE ROLE "${role}" LOGIN`);
  for (const statement of roleSql()) await owner.query(statement);
  url.username = role;
  asApp = new pg.Client({ connectionString: url.toString() });
  await asApp.connect();
  await t.app.request('/api/site'); // something in the log
});
afterAll(async () => {
  if (!onPostgres) return;
  await asApp?.end();
  await owner
    ?.query(`REASSIGN OWNED BY "${role}" TO CURRENT_USER; DROP OWNED BY "${role}"; DROP ROLE IF EXISTS "${role}"`)
    .catch(() => undefined);
  await owner?.end();
  await t?.close();
});

describe.runIf(onPostgres)('the application role of deploy/app-role.sql', () => {
  it('reads, writes read models, finds no migration to run, and may not change, remove or unprotect an event', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${(await owner.query('SELECT current_database() AS name')).rows[0].name}`;
    url.username = role;
    const handle = await openDatabase({ databaseUrl: url.toString() });
    try {
      expect(await migrateToLatest(handle.db)).toEqual([]);
    } finally {
      await handle.close();
    }
    await asApp.query('SELECT count(*) FROM events');
    await asApp.query('UPDATE escrows SET status = status WHERE false');
    const refused = async (text: string) =>
      asApp.query(text).then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    expect(await refused('UPDATE events SET data = data')).toMatch(/permission denied/);
    expect(await refused('DELETE FROM events')).toMatch(/permission denied/);
    expect(await refused('TRUNCATE events')).toMatch(/permission denied/);
    expect(await refused('ALTER TABLE events DISABLE TRIGGER events_append_only')).toMatch(/must be owner/);
  });
});
