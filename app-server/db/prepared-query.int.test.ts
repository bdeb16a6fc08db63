import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnPostgres } from '../testing/postgres-only.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { preparedQuery } from './database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await t.db
    .insertInto('notices')
    .values([{ name: 'first' }, { name: 'second' }])
    .execute();
});
afterAll(async () => t.dispose());

describe('preparedQuery', () => {
  it('builds the query once and binds each call its own values', async () => {
    let builds = 0;
    const noticeNamed = preparedQuery((db, p: { name: string; also: string }) => {
      builds += 1;
      return db
        .selectFrom('notices')
        .select('name')
        .where((eb) => eb.or([eb('name', '=', p.name), eb('name', '=', p.also)]))
        .orderBy('name');
    });
    expect(await noticeNamed(t.db, { name: 'first', also: 'none' })).toEqual([{ name: 'first' }]);
    expect(await noticeNamed(t.db, { name: 'none', also: 'second' })).toEqual([{ name: 'second' }]);
    expect(await noticeNamed(t.db, { name: 'second', also: 'first' })).toEqual([{ name: 'first' }, { name: 'second' }]);
    expect(builds).toBe(1);
  });

  it('keeps the constants of the query beside the bound values', async () => {
    const firstOr = preparedQuery((db, p: { name: string }) =>
      db.selectFrom('notices').select('name').where('name', 'in', ['first', p.name]).orderBy('name'),
    );
    expect(await firstOr(t.db, { name: 'second' })).toEqual([{ name: 'first' }, { name: 'second' }]);
    expect(await firstOr(t.db, { name: 'none' })).toEqual([{ name: 'first' }]);
  });
});

describeOnPostgres('preparedQuery on PostgreSQL', () => {
  const noticeNamed = preparedQuery((db, p: { name: string }) =>
    db.selectFrom('notices').select('name as named_once').where('name', '=', p.name),
  );

  it('runs as a statement the connection prepared once, by its name', async () => {
    const prepared = await t.db.transaction().execute(async (trx) => {
      expect(await noticeNamed(trx, { name: 'first' })).toEqual([{ named_once: 'first' }]);
      expect(await noticeNamed(trx, { name: 'second' })).toEqual([{ named_once: 'second' }]);
      return (
        await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(trx)
      ).rows.filter((row) => row.statement.includes('named_once'));
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^p[\w-]{24}$/);
  });

  it("refuses with the database's own error when the statement fails", async () => {
    const inverse = preparedQuery((db, p: { n: number }) => db.selectNoFrom(sql<number>`1 / ${p.n}::int`.as('x')));
    expect(await inverse(t.db, { n: 2 })).toEqual([{ x: 0 }]);
    await expect(inverse(t.db, { n: 0 })).rejects.toMatchObject({ code: '22012' });
  });
});
