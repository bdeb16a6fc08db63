import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
