import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, form, json, signedInAdmin, signedInUser, verifiedUser } from '../../../testing/accounts.ts';
import { openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = Record<string, unknown> & { id: string; status: string };
const POOL = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const PAYOUT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const REFUND = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

/** A funded deal: buyer created it, the pool gave an address, the buyer marked it paid, an admin verified it. */
async function fundedDeal() {
  const { admin, buyer, seller } = await openMarket(t, [POOL]);
  const created = (await (
    await t.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Camera',
          description: 'Mirrorless',
          amount_usd: '1000.00',
          seller_email: 'sam@example.com',
        },
        buyer.token,
      ),
    )
  ).json()) as Escrow;
  expect(
    (await t.app.request(`/api/escrows/${created.id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status,
  ).toBe(200);
  const verified = await t.app.request(
    `/api/admin/escrows/${created.id}/verify-payment`,
    form({ verified: 'true', notes: 'seen on chain', txid: 'A'.repeat(64) }, admin.token),
  );
  expect(verified.status).toBe(200);
  expect(await verified.json()).toMatchObject({ status: 'funded', payment_txid: 'a'.repeat(64) });
  return { admin, buyer, seller, id: created.id };
}

describe('a whole deal through the API', () => {
  it('goes funded -> payout address -> confirmed -> released, with the payout recorded', async () => {
    const { admin, buyer, seller, id } = await fundedDeal();
    const noPayout = await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token));
    expect([noPayout.status, await detail(noPayout)]).toEqual([409, 'The seller has not set a payout address yet']);
    const testnet = await t.app.request(
      `/api/escrows/${id}/payout-address`,
      json({ address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' }, seller.token),
    );
    expect(testnet.status).toBe(422);
    expect(
      (await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token))).status,
    ).toBe(200);
    expect((await t.app.request(`/api/escrows/${id}/confirm-receipt`, bearer(seller.token, 'POST'))).status).toBe(403);
    const confirmed = await t.app.request(`/api/escrows/${id}/confirm-receipt`, bearer(buyer.token, 'POST'));
    expect(await confirmed.json()).toMatchObject({ buyer_confirmed_at: expect.any(String) });
    const released = await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: 'delivered' }, admin.token));
    expect(await released.json()).toMatchObject({
      status: 'released',
      seller_sats: 2_000_000,
      fee_sats: 30_000,
      payout_address: PAYOUT,
    });
    const again = await t.app.request(`/api/admin/escrows/${id}/refund`, form({ notes: '' }, admin.token));
    expect([again.status, await detail(again)]).toEqual([409, 'Cannot refund an escrow that is released']);
    const address = await t.database.db.selectFrom('addresses').select('status').executeTakeFirstOrThrow();
    expect(address.status).toBe('used');
  });

  it('rejects a payment mark, which the buyer may then mark again', async () => {
    const admin = await signedInAdmin(t);
    await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
    await t.app.request('/api/admin/addresses', form({ address_string: POOL }, admin.token));
    const buyer = await verifiedUser(t, 'ann', 'buyer');
    const { id } = (await (
      await t.app.request(
        '/api/escrows',
        json(
          { product_service: 'Pen', description: 'A pen', amount_usd: 10, seller_email: 's@example.com' },
          buyer.token,
        ),
      )
    ).json()) as Escrow;
    await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    const rejected = await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'false', notes: 'nothing on chain' }, admin.token),
    );
    expect(await rejected.json()).toMatchObject({ status: 'pending_payment', payment_marked_at: null });
    const bad = await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'maybe' }, admin.token),
    );
    expect([bad.status, await detail(bad)]).toEqual([422, 'verified must be true or false']);
  });

  it('resolves a dispute with a split: the fee is kept, the rest divided', async () => {
    const { admin, buyer, seller, id } = await fundedDeal();
    await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token));
    await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: REFUND }, buyer.token));
    const noReason = await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: ' ' }, buyer.token));
    expect([noReason.status, await detail(noReason)]).toEqual([422, 'reason is required']);
    expect(
      await (
        await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'Only half delivered' }, buyer.token))
      ).json(),
    ).toMatchObject({ status: 'disputed' });
    const [dispute] = (await (await t.app.request('/api/admin/disputes', bearer(admin.token))).json()) as {
      id: string;
      status: string;
    }[];
    expect(dispute!.status).toBe('open');
    const badSplit = await t.app.request(
      `/api/admin/disputes/${dispute!.id}/resolve`,
      form({ outcome: 'Split', resolution: 'split', seller_percent: '100' }, admin.token),
    );
    expect([badSplit.status, await detail(badSplit)]).toEqual([
      422,
      'seller_percent must be a whole number from 1 to 99 for a split',
    ]);
    const split = await t.app.request(
      `/api/admin/disputes/${dispute!.id}/resolve`,
      form({ outcome: 'Half each', resolution: 'split', seller_percent: '60' }, admin.token),
    );
    expect(await split.json()).toMatchObject({
      status: 'released',
      seller_sats: 1_200_000,
      buyer_sats: 800_000,
      fee_sats: 30_000,
    });
  });

  it('freezes and unfreezes back to where it was; cancels only for the creator', async () => {
    const { admin, seller, buyer, id } = await fundedDeal();
    expect(
      await (
        await t.app.request(`/api/admin/escrows/${id}/freeze`, form({ reason: 'Chargeback check' }, admin.token))
      ).json(),
    ).toMatchObject({ status: 'frozen' });
    expect(
      await (await t.app.request(`/api/admin/escrows/${id}/unfreeze`, form({ reason: 'Clear' }, admin.token))).json(),
    ).toMatchObject({ status: 'funded' });
    expect((await t.app.request(`/api/escrows/${id}/cancel`, bearer(seller.token, 'POST'))).status).toBe(403);
    const late = await t.app.request(`/api/escrows/${id}/cancel`, bearer(buyer.token, 'POST'));
    expect([late.status, await detail(late)]).toEqual([409, 'Cannot cancel an escrow that is funded']);
  });

  it('lets exactly one of ten simultaneous releases through', async () => {
    const { admin, seller, id } = await fundedDeal();
    await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token));
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: 'go' }, admin.token)),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const releases = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `escrow:${id}`)
      .where('type', '=', 'EscrowReleased')
      .execute();
    expect(releases).toHaveLength(1);
  });

  it('keeps strangers out of every action with 404, and non-admins out of admin actions with 403', async () => {
    const { buyer, id } = await fundedDeal();
    const stranger = await signedInUser(t, 'zoe');
    expect((await t.app.request(`/api/escrows/${id}/confirm-receipt`, bearer(stranger.token, 'POST'))).status).toBe(
      404,
    );
    expect((await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '' }, buyer.token))).status).toBe(
      403,
    );
  });
});
