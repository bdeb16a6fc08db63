import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearer, enableTwoFactorFor, form, freshCode, json, lastMailTo } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * A stolen session swapping a payout or refund address before the money arrives: every replacement after the first,
 * in any status, takes the party's code (when on), is mailed to both parties and the admins and is held.
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PAYOUT_ADDRESS_HOLD_HOURS: '24' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = Record<string, unknown> & { id: string; status: string };
const body = async (res: Response) => (await res.json()) as { detail: string; code?: string } & Record<string, unknown>;
const PAYOUT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const REFUND = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

async function unpaidDeal() {
  const market = await openMarket(t, [freshAddress()]);
  const created = await t.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      market.buyer.token,
    ),
  );
  expect(created.status).toBe(201);
  return { ...market, id: ((await created.json()) as Escrow).id };
}

describe('replacing a payout or refund address before the escrow is funded', () => {
  it('needs the code, is mailed to both parties and the admins, and is held through funding', async () => {
    const { admin, buyer, seller, id } = await unpaidDeal();
    const { secret } = await enableTwoFactorFor(t, seller.token);
    // The first address needs no code and is not held.
    const first = await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token));
    expect(first.status).toBe(200);
    expect(((await first.json()) as Escrow).payout_address_held_until).toBeNull();

    // The buyer marks the payment: money is on its way, and the seller's session tries a swap without the code.
    expect((await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status).toBe(
      200,
    );
    const other = freshAddress();
    const noCode = await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: other }, seller.token));
    expect([noCode.status, (await body(noCode)).code]).toEqual([422, 'totp_required']);

    const replaced = await t.app.request(
      `/api/escrows/${id}/payout-address`,
      json({ address: other, totp_code: await freshCode(t, seller.id, secret) }, seller.token),
    );
    expect(replaced.status).toBe(200);
    expect((await replaced.json()) as Escrow).toMatchObject({
      status: 'pending_payment',
      payout_address: other,
      payout_address_held_until: expect.any(String),
    });
    for (const to of ['ann@example.com', 'sam@example.com', 'root@example.com']) {
      expect((await lastMailTo(t, to)).body).toContain(`from ${PAYOUT} to ${other}`);
    }

    expect(
      (await t.app.request(`/api/admin/escrows/${id}/verify-payment`, form({ verified: 'true' }, admin.token))).status,
    ).toBe(200);
    const release = await t.app.request(
      `/api/admin/escrows/${id}/release`,
      form({ notes: '', expected_address: other }, admin.token),
    );
    expect(release.status).toBe(409);
    expect((await body(release)).detail).toMatch(/replaced recently; money cannot go to it before/);
  });

  it('holds a refund address replaced before the buyer marks the payment, and asks the buyer for a code', async () => {
    const { buyer, id } = await unpaidDeal();
    const { secret } = await enableTwoFactorFor(t, buyer.token);
    expect(
      (await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: REFUND }, buyer.token))).status,
    ).toBe(200);
    const other = freshAddress();
    const noCode = await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: other }, buyer.token));
    expect([noCode.status, (await body(noCode)).code]).toEqual([422, 'totp_required']);
    const replaced = await t.app.request(
      `/api/escrows/${id}/payout-address`,
      json({ address: other, totp_code: await freshCode(t, buyer.id, secret) }, buyer.token),
    );
    expect((await replaced.json()) as Escrow).toMatchObject({
      refund_address: other,
      refund_address_held_until: expect.any(String),
    });
    const history = (await (await t.app.request(`/api/escrows/${id}/history`, bearer(buyer.token))).json()) as {
      summary?: string;
    }[];
    expect(JSON.stringify(history)).toContain('no money goes to it before');
  });

  it('holds a replacement by a party without 2FA too, and needs no code from them', async () => {
    const { seller, id } = await unpaidDeal();
    expect(
      (await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token))).status,
    ).toBe(200);
    const replaced = await t.app.request(
      `/api/escrows/${id}/payout-address`,
      json({ address: freshAddress() }, seller.token),
    );
    expect(replaced.status).toBe(200);
    expect(((await replaced.json()) as Escrow).payout_address_held_until).toEqual(expect.any(String));
  });
});

describe('the escrow list while an address is held', () => {
  afterEach(() => vi.useRealTimers());

  it('offers the release in the admins’ list once the hold ends, though no escrow event came since', async () => {
    const { admin, buyer, seller, id } = await unpaidDeal();
    expect(
      (await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token))).status,
    ).toBe(200);
    expect((await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status).toBe(
      200,
    );
    const other = freshAddress();
    expect(
      (await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: other }, seller.token))).status,
    ).toBe(200);
    expect(
      (await t.app.request(`/api/admin/escrows/${id}/verify-payment`, form({ verified: 'true' }, admin.token))).status,
    ).toBe(200);
    const listed = async () => {
      const res = await t.app.request('/api/escrows', bearer(admin.token));
      expect(res.status).toBe(200);
      return ((await res.json()) as (Escrow & { allowed_actions: string[] })[]).find((e) => e.id === id)!;
    };
    expect((await listed()).allowed_actions).not.toContain('release');

    // A day and an hour later the hold is over; nothing was appended to the log meanwhile.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 25 * 3_600_000 });
    expect((await listed()).allowed_actions).toContain('release');
  });
});
