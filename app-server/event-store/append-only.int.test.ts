import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { tamperWith } from '../testing/tamper.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { readChainHead } from './chain-head.ts';
import { verifyChain } from './verify-chain.ts';

/** `events` is append-only in the database itself (migration 0009): whoever connects, UPDATE and DELETE fail. */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
  await openMarket(t, [freshAddress()]);
});
afterAll(async () => t.close());

const refusal = (run: () => Promise<unknown>) =>
  run().then(
    () => 'accepted',
    (error: Error) => error.message,
  );

describe('events is append-only', () => {
  it('refuses UPDATE and DELETE of any event, and the log is left whole', async () => {
    const head = await readChainHead(t.database.db);
    expect(head.position).toBeGreaterThan(2);
    const db = t.database.db;
    expect(await refusal(() => sql`UPDATE events SET data = '{}' WHERE position = 2`.execute(db))).toMatch(
      /events is append-only: UPDATE refused on event 2/,
    );
    expect(await refusal(() => db.updateTable('events').set({ type: 'UserRegistered' }).execute())).toMatch(
      /append-only/,
    );
    expect(await refusal(() => sql`DELETE FROM events WHERE position = ${head.position}`.execute(db))).toMatch(
      /events is append-only: DELETE refused/,
    );
    expect(await refusal(() => db.deleteFrom('events').execute())).toMatch(/append-only/);
    expect((await verifyChain(db)).ok).toBe(true);
  });

  it('still takes new events, and an owner who switches the trigger off (as tamper tests do) can change them', async () => {
    const before = (await readChainHead(t.database.db)).position;
    await openMarket(t, []).catch(() => undefined); // more appends (the admin exists: some calls refuse, some append)
    expect((await readChainHead(t.database.db)).position).toBeGreaterThanOrEqual(before);
    await tamperWith(t.database.db, (trx) =>
      sql`UPDATE events SET data = jsonb_set(data, '{tampered}', 'true') WHERE position = 2`.execute(trx),
    );
    expect((await verifyChain(t.database.db)).ok).toBe(false);
    // Switched on again at commit.
    expect(await refusal(() => sql`DELETE FROM events WHERE position = 2`.execute(t.database.db))).toMatch(
      /append-only/,
    );
  });
});
