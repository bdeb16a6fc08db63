import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, form, json, multipart, signedInUser } from '../../../testing/accounts.ts';
import { openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const POOL = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const PAYOUT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const REFUND = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const TXID = 'ab'.repeat(32);
type Entry = Record<string, unknown> & { type: string; summary: string; actor_side: string };

async function history(id: string, token: string) {
  const res = await t.app.request(`/api/escrows/${id}/history`, bearer(token));
  return { status: res.status, body: (await res.json()) as Entry[] & { detail?: string } };
}

/** A buyer-created deal taken through a rejected mark, a second mark, verification, a dispute and a split. */
async function eventfulDeal() {
  const { admin, buyer, seller } = await openMarket(t, [POOL]);
  const created = await t.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      buyer.token,
    ),
  );
  const { id } = (await created.json()) as { id: string };
  const evidence = new File([new TextEncoder().encode('txid: sent from my wallet')], 'receipt.txt', {
    type: 'text/plain',
  });
  expect(
    (
      await t.app.request(
        `/api/escrows/${id}/mark-paid`,
        multipart({ notes: 'my private wallet label', file: evidence }, buyer.token),
      )
    ).status,
  ).toBe(200);
  await t.app.request(
    `/api/admin/escrows/${id}/verify-payment`,
    form({ verified: 'false', notes: 'ADMIN-ONLY: nothing on chain' }, admin.token),
  );
  await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent again' }, buyer.token));
  await t.app.request(
    `/api/admin/escrows/${id}/verify-payment`,
    form({ verified: 'true', notes: 'ADMIN-ONLY: seen', txid: TXID }, admin.token),
  );
  await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: PAYOUT }, seller.token));
  await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: REFUND }, buyer.token));
  await t.app.request(`/api/admin/escrows/${id}/freeze`, form({ reason: 'ADMIN-ONLY: chargeback check' }, admin.token));
  await t.app.request(`/api/admin/escrows/${id}/unfreeze`, form({ reason: 'ADMIN-ONLY: clear' }, admin.token));
  await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'Only half delivered' }, seller.token));
  const [dispute] = (await (await t.app.request('/api/admin/disputes', bearer(admin.token))).json()) as {
    id: string;
  }[];
  const resolved = await t.app.request(
    `/api/admin/disputes/${dispute!.id}/resolve`,
    form({ outcome: 'Half each', resolution: 'split', seller_percent: '60', notes: 'x' }, admin.token),
  );
  expect(resolved.status).toBe(200);
  return { admin, buyer, seller, id };
}

describe('GET /api/escrows/{id}/history', () => {
  it('tells both parties what happened when, in words, on whose side, oldest first', async () => {
    const { buyer, seller, id } = await eventfulDeal();
    const seen = await history(id, seller.token);
    expect(seen.status).toBe(200);
    expect(seen.body.map((e) => [e.type, e.actor_side, e.summary])).toEqual([
      ['EscrowCreated', 'buyer', 'Escrow opened by the buyer'],
      ['PaymentAddressAssigned', 'buyer', 'Payment address given to the buyer'],
      ['PaymentMarked', 'buyer', 'Payment marked as sent'],
      ['PaymentRejected', 'admin', 'Payment not confirmed on the chain; the buyer may mark it again'],
      ['PaymentMarked', 'buyer', 'Payment marked as sent'],
      ['PaymentVerified', 'admin', 'Payment verified: the money is held in escrow'],
      ['PayoutAddressSet', 'seller', 'Payout address set by the seller'],
      ['PayoutAddressSet', 'buyer', 'Refund address set by the buyer'],
      ['EscrowFrozen', 'admin', 'Frozen by an admin'],
      ['EscrowUnfrozen', 'admin', 'Unfrozen by an admin'],
      ['DisputeOpened', 'seller', 'Dispute opened by the seller'],
      ['DisputeResolved', 'admin', 'Dispute resolved: split between the parties'],
    ]);
    expect(seen.body[2]).toMatchObject({ evidence_files: 1 });
    expect(seen.body[5]).toMatchObject({ txid: TXID });
    expect(seen.body[6]).toMatchObject({ address: PAYOUT });
    expect(seen.body[10]).toMatchObject({ reason: 'Only half delivered' });
    expect(seen.body[11]).toMatchObject({
      outcome: 'Half each',
      seller_percent: 60,
      seller_sats: 1_200_000,
      buyer_sats: 800_000,
    });
    const times = seen.body.map((e) => Date.parse(e.occurred_at as string));
    expect(times.every((time, i) => Number.isFinite(time) && (i === 0 || time >= times[i - 1]!))).toBe(true);
    expect((await history(id, buyer.token)).body).toEqual(seen.body);
  });

  it("never shows what an admin keeps internal, the buyer's private notes, or any account id", async () => {
    const { admin, buyer, seller, id } = await eventfulDeal();
    const text = JSON.stringify((await history(id, buyer.token)).body);
    expect(text).not.toContain('ADMIN-ONLY');
    expect(text).not.toContain('my private wallet label');
    for (const user of [admin, buyer, seller]) expect(text).not.toContain(user.id);
    expect(text).not.toMatch(/request_id|actor"|metadata|hash/);
  });

  it('answers 404 to a stranger and to a counterparty whose e-mail is not verified, exactly as the escrow itself does', async () => {
    const { buyer, id } = await eventfulDeal();
    const stranger = await signedInUser(t, 'zoe');
    for (const path of [`/api/escrows/${id}`, `/api/escrows/${id}/history`]) {
      const res = await t.app.request(path, bearer(stranger.token));
      expect([res.status, await res.json()]).toEqual([404, { detail: 'Escrow not found', code: 'not_found' }]);
    }
    const created = await t.app.request(
      '/api/escrows',
      json(
        { product_service: 'Lamp', description: 'Desk lamp', amount_usd: 20, seller_email: 'unverified@example.com' },
        buyer.token,
      ),
    );
    const lamp = ((await created.json()) as { id: string }).id;
    await t.app.request(
      '/api/auth/register',
      json({
        full_name: 'Una',
        email: 'unverified@example.com',
        username: 'una',
        password: 'correct horse battery',
        confirm_password: 'correct horse battery',
        role: 'seller',
      }),
    );
    const una = await t.app.request('/api/auth/login', json({ username: 'una', password: 'correct horse battery' }));
    const token = ((await una.json()) as { access_token: string }).access_token;
    expect((await history(lamp, token)).status).toBe(404);
    expect((await t.app.request(`/api/escrows/${crypto.randomUUID()}/history`, bearer(buyer.token))).status).toBe(404);
    expect((await t.app.request('/api/escrows/not-an-id/history', bearer(buyer.token))).status).toBe(422);
    expect((await t.app.request(`/api/escrows/${id}/history`)).status).toBe(401);
  });

  it('is shown to admins too, and documented in the OpenAPI document', async () => {
    const { admin, id } = await eventfulDeal();
    expect((await history(id, admin.token)).status).toBe(200);
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
    };
    expect(doc.paths['/api/escrows/{id}/history']?.get?.responses['200']).toBeDefined();
  });
});

describe('what the escrow answer adds for its page', () => {
  it('says when a payment was rejected and gives the latest dispute with its outcome, without account ids', async () => {
    const { buyer, seller, id } = await eventfulDeal();
    const escrow = (await (await t.app.request(`/api/escrows/${id}`, bearer(buyer.token))).json()) as Record<
      string,
      unknown
    >;
    expect(escrow.payment_rejected_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
    expect(escrow.dispute).toEqual({
      id: expect.any(String),
      reason: 'Only half delivered',
      opened_by_side: 'seller',
      opened_at: expect.any(String),
      status: 'resolved',
      outcome: 'Half each',
      resolution: 'split',
      seller_percent: 60,
      resolved_at: expect.any(String),
    });
    const [listed] = (await (await t.app.request('/api/escrows', bearer(seller.token))).json()) as Record<
      string,
      unknown
    >[];
    expect(listed!.dispute).toEqual(escrow.dispute);
  });
});
