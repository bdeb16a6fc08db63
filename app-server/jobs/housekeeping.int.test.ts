import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { housekeeping } from './housekeeping.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => t.dispose());

describe('housekeeping', () => {
  it('drops failed sign-ins older than 30 days and keeps recent ones', async () => {
    const now = new Date('2026-06-30T00:00:00.000Z');
    await t.db
      .insertInto('security_log')
      .values([
        { kind: 'bad-password', username: 'old', client_address: '1.2.3.4', at: new Date('2026-05-01T00:00:00.000Z') },
        {
          kind: 'bad-password',
          username: 'recent',
          client_address: '1.2.3.4',
          at: new Date('2026-06-29T00:00:00.000Z'),
        },
      ])
      .execute();
    await housekeeping(t.db, now);
    const left = await t.db.selectFrom('security_log').select('username').execute();
    expect(left.map((r) => r.username)).toEqual(['recent']);
  });
});
