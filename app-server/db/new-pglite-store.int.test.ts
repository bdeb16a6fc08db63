import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import type { Database } from './schema.ts';

const tablesNamed = async (db: Kysely<Database>, name: string) =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = ${name}`.execute(db)).rows[0]!.n;

/**
 * A new PGlite store is unpacked from the template `npm run build` makes (initdb once, at build time: ~880 MB, where
 * unpacking peaks at ~380 MB), and made by initdb when the template is missing or does not open.
 */
describe('a new PGlite store', () => {
  const root = mkdtempSync(join(tmpdir(), 'escrow-new-store-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const template = join(root, 'store.tar.gz');

  it('is made by initdb when the template is not a store, then can itself be a template', async () => {
    writeFileSync(template, 'not a tarball');
    const first = await openDatabase({ dataDir: join(root, 'first'), pgliteStoreTemplate: template });
    try {
      expect(await tablesNamed(first.db, 'from_the_template')).toBe(0);
      await sql`CREATE TABLE from_the_template (id int)`.execute(first.db);
      writeFileSync(template, Buffer.from(await (await first.dumpDataDir!()).arrayBuffer()));
    } finally {
      await first.close();
    }
  }, 60_000);

  it('is unpacked from the template into an empty data directory, and opens again as it was', async () => {
    const dataDir = join(root, 'second');
    const made = await openDatabase({ dataDir, pgliteStoreTemplate: template });
    try {
      expect(await tablesNamed(made.db, 'from_the_template')).toBe(1);
      await sql`INSERT INTO from_the_template VALUES (7)`.execute(made.db);
    } finally {
      await made.close();
    }
    // Opening it again reads the directory, whatever the template says now.
    writeFileSync(template, 'not a tarball');
    const reopened = await openDatabase({ dataDir, pgliteStoreTemplate: template });
    try {
      expect((await sql<{ id: number }>`SELECT id FROM from_the_template`.execute(reopened.db)).rows).toEqual([
        { id: 7 },
      ]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
