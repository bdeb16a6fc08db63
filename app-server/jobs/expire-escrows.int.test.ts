import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { form, json, signedInAdmin, verifiedUser } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { expireOverdueEscrows } from './expire-escrows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const POOL = ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'];
const DAY = 86_400_000;

async function twoEscrows() {
  const admin = await signedInAdmin(t);
  await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
  for (const address of POOL)
    await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
  const buyer = await verifiedUser(t, 'ann', 'buyer');
  const ids: string[] = [];
  for (const deadline_days of [1, 3]) {
    const res = await t.app.request(
      '/api/escrows',
      json(
        {
          product_service: `Deal ${deadline_days}`,
          description: 'x',
          amount_usd: 50,
          deadline_days,
          seller_email: 'sam@example.com',
        },
        buyer.token,
      ),
    );
    ids.push(((await res.json()) as { id: string }).id);
  }
  return { buyer, ids: ids as [string, string] };
}
const statusOf = async (id: string) =>
  (await t.database.db.selectFrom('escrows').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('the expiry job', () => {
  it('cancels unpaid escrows past their deadline as the system, frees their address and tells both parties', async () => {
    const { ids } = await twoEscrows();
    const inTwoDays = new Date(Date.now() + 2 * DAY);
    expect(await expireOverdueEscrows(t.deps, inTwoDays)).toBe(1);
    expect([await statusOf(ids[0]), await statusOf(ids[1])]).toEqual(['cancelled', 'pending_payment']);
    const event = await t.database.db
      .selectFrom('events')
      .select(['metadata'])
      .where('type', '=', 'EscrowExpired')
      .executeTakeFirstOrThrow();
    expect(event.metadata).toMatchObject({ actor: 'system' });
    const freed = await t.database.db
      .selectFrom('addresses')
      .select('status')
      .where('address_string', '=', POOL[0]!)
      .executeTakeFirstOrThrow();
    expect(freed.status).toBe('available');
    const subjects = (
      await t.database.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'subject'])
        .where('subject', 'like', 'Escrow expired%')
        .execute()
    )
      .map((m) => m.to_address)
      .sort();
    expect(subjects).toEqual(['ann@example.com', 'sam@example.com']);
    // Again: nothing left to do, nothing written twice.
    expect(await expireOverdueEscrows(t.deps, inTwoDays)).toBe(0);
    expect(
      await t.database.db.selectFrom('events').select('type').where('type', '=', 'EscrowExpired').execute(),
    ).toHaveLength(1);
  });

  it('leaves an escrow the buyer marked as paid, even past its deadline', async () => {
    const { buyer, ids } = await twoEscrows();
    await t.app.request(`/api/escrows/${ids[0]}/mark-paid`, form({ notes: 'sent on time' }, buyer.token));
    expect(await expireOverdueEscrows(t.deps, new Date(Date.now() + 10 * DAY))).toBe(1);
    expect([await statusOf(ids[0]), await statusOf(ids[1])]).toEqual(['pending_payment', 'cancelled']);
  });

  it('expires each escrow once when several servers run it at the same moment', async () => {
    const { ids } = await twoEscrows();
    const later = new Date(Date.now() + 10 * DAY);
    const runs = await Promise.all([
      expireOverdueEscrows(t.deps, later),
      expireOverdueEscrows(t.deps, later),
      expireOverdueEscrows(t.deps, later),
    ]);
    expect(runs.reduce<number>((sum, n) => sum + (n ?? 0), 0)).toBe(2);
    const expired = await t.database.db
      .selectFrom('events')
      .select('stream_id')
      .where('type', '=', 'EscrowExpired')
      .execute();
    expect(expired.map((e) => e.stream_id).sort()).toEqual(ids.map((id) => `escrow:${id}`).sort());
  });
});
