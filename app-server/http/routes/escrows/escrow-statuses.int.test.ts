import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, form, json } from '../../../testing/accounts.ts';
import { freshAddress } from '../../../testing/bitcoin.ts';
import { openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

/**
 * Every party and admin action against an escrow in every status: what the lifecycle allows answers 200, the
 * rest 409 with a detail that says why, and a refusal changes nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Who = { token: string };
let admin: Who;
let buyer: Who;
let seller: Who;

async function market() {
  ({ admin, buyer, seller } = await openMarket(t));
}

const post = async (path: string, init: RequestInit) => {
  const res = await t.app.request(path, init);
  return { status: res.status, body: (await res.json()) as { status: string; detail?: string } };
};
async function must(path: string, init: RequestInit) {
  const answer = await post(path, init);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body.detail}`);
  return answer.body;
}

type Status = 'pending' | 'marked' | 'funded' | 'disputed' | 'frozen' | 'released' | 'refunded' | 'cancelled';
/** An escrow brought to `status` through the API only. */
async function escrowIn(status: Status): Promise<string> {
  await t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, admin.token));
  const created = await t.app.request(
    '/api/escrows',
    json(
      { product_service: 'Desk', description: 'Oak', amount_usd: 300, seller_email: 'sam@example.com' },
      buyer.token,
    ),
  );
  const { id } = (await created.json()) as { id: string };
  const to = (path: string, init: RequestInit) => must(`/api/${path.replace('{id}', id)}`, init);
  if (status === 'pending') return id;
  if (status === 'cancelled') return (await to('escrows/{id}/cancel', bearer(buyer.token, 'POST')), id);
  await to('escrows/{id}/mark-paid', form({ notes: 'sent' }, buyer.token));
  if (status === 'marked') return id;
  await to('admin/escrows/{id}/verify-payment', form({ verified: 'true', notes: 'seen' }, admin.token));
  await to('escrows/{id}/payout-address', json({ address: freshAddress() }, seller.token));
  await to('escrows/{id}/payout-address', json({ address: freshAddress() }, buyer.token));
  if (status === 'disputed') await to('escrows/{id}/open-dispute', json({ reason: 'Scratched' }, buyer.token));
  if (status === 'frozen') await to('admin/escrows/{id}/freeze', form({ reason: 'Check' }, admin.token));
  if (status === 'released') await to('admin/escrows/{id}/release', form({ notes: '' }, admin.token));
  if (status === 'refunded') await to('admin/escrows/{id}/refund', form({ notes: '' }, admin.token));
  return id;
}

const actions = {
  cancel: (id: string) => post(`/api/escrows/${id}/cancel`, bearer(buyer.token, 'POST')),
  markPaid: (id: string) => post(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token)),
  confirm: (id: string) => post(`/api/escrows/${id}/confirm-receipt`, bearer(buyer.token, 'POST')),
  dispute: (id: string) => post(`/api/escrows/${id}/open-dispute`, json({ reason: 'Not as described' }, buyer.token)),
  release: (id: string) => post(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token)),
  refund: (id: string) => post(`/api/admin/escrows/${id}/refund`, form({ notes: '' }, admin.token)),
  freeze: (id: string) => post(`/api/admin/escrows/${id}/freeze`, form({ reason: 'Check' }, admin.token)),
  unfreeze: (id: string) => post(`/api/admin/escrows/${id}/unfreeze`, form({ reason: 'Clear' }, admin.token)),
};
type Action = keyof typeof actions;

/** What each status allows; everything else is refused. */
const allowed: Record<Status, Action[]> = {
  pending: ['cancel', 'markPaid', 'dispute', 'freeze'],
  marked: ['dispute', 'freeze'],
  funded: ['confirm', 'dispute', 'release', 'refund', 'freeze'],
  disputed: ['freeze'],
  frozen: ['unfreeze'],
  released: [],
  refunded: [],
  cancelled: [],
};
const statusName: Record<Status, string> = {
  pending: 'pending_payment',
  marked: 'pending_payment',
  funded: 'funded',
  disputed: 'disputed',
  frozen: 'frozen',
  released: 'released',
  refunded: 'refunded',
  cancelled: 'cancelled',
};

describe('every action in every status', () => {
  it.each(Object.keys(allowed) as Status[])('%s', async (status) => {
    await market();
    const refused = await escrowIn(status);
    const streamLength = async () =>
      (
        await t.database.db
          .selectFrom('events')
          .select('position')
          .where('stream_id', '=', `escrow:${refused}`)
          .execute()
      ).length;
    const before = await streamLength();
    for (const action of Object.keys(actions) as Action[]) {
      if (allowed[status].includes(action)) {
        const answer = await actions[action](await escrowIn(status));
        expect([action, answer.status, answer.body.detail]).toEqual([action, 200, undefined]);
      } else {
        const answer = await actions[action](refused);
        expect([action, answer.status]).toEqual([action, 409]);
        const named = status === 'marked' ? /pending_payment|marked/ : new RegExp(statusName[status]);
        expect(answer.body.detail).toMatch(named);
      }
    }
    // The refusals wrote nothing on the escrow they were tried on.
    expect(await streamLength()).toBe(before);
  });
});
