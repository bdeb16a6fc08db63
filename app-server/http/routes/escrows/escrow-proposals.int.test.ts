import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, form, json, signedInUser } from '../../../testing/accounts.ts';
import { freshAddress } from '../../../testing/bitcoin.ts';
import { openFundedDeal, openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: 'https://escrow.example' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const PAYOUT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const REFUND = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

interface Proposal {
  id: string;
  kind: string;
  status: string;
  proposed_by: string;
  seller_percent: number | null;
  days: number | null;
  note: string | null;
  seller_sats: number | null;
  buyer_sats: number | null;
  created_at: string;
}
type Escrow = Record<string, unknown> & {
  id: string;
  status: string;
  proposals: Proposal[];
  allowed_actions: string[];
};

const call = async (path: string, init: RequestInit) => {
  const res = await t.app.request(path, init);
  const body = (await res.json()) as Escrow & { detail?: string };
  return { status: res.status, body, detail: body.detail };
};
const propose = (id: string, token: string, body: Record<string, unknown>) =>
  call(`/api/escrows/${id}/proposals`, json(body, token));
const answer = (
  id: string,
  pid: string,
  verb: 'accept' | 'decline' | 'withdraw',
  token: string,
  body?: Record<string, unknown>,
) =>
  call(
    `/api/escrows/${id}/proposals/${pid}/${verb}`,
    verb === 'decline' ? json(body ?? {}, token) : bearer(token, 'POST'),
  );
const mailTo = async (to: string, subjectStart: string) =>
  (
    await t.database.db.selectFrom('mail_outbox').select(['subject', 'body']).where('to_address', '=', to).execute()
  ).filter((m) => m.subject.startsWith(subjectStart));

/** ann (buyer) opens an unpaid deal with sam (seller), with a pool address for it. */
async function unpaidDeal() {
  const market = await openMarket(t, [freshAddress()]);
  const created = await call(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      market.buyer.token,
    ),
  );
  expect(created.status).toBe(201);
  return { ...market, id: created.body.id };
}

describe('POST /api/escrows/{id}/proposals', () => {
  it('records a split with its satoshis, answers the escrow with it, and mails the other side', async () => {
    const { buyer, seller, id } = await openFundedDeal(t, { payout: PAYOUT, refund: REFUND });
    const made = await propose(id, buyer.token, { kind: 'split', seller_percent: 70, note: 'One lens was scratched' });
    expect(made.status).toBe(200);
    expect(made.body.proposals).toEqual([
      {
        id: expect.any(String),
        kind: 'split',
        status: 'open',
        proposed_by: 'buyer',
        seller_percent: 70,
        days: null,
        note: 'One lens was scratched',
        seller_sats: 1_400_000,
        buyer_sats: 600_000,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(made.body.allowed_actions).toContain('withdraw_proposal');
    expect(made.body.allowed_actions).not.toContain('propose');
    const sellerView = (await call(`/api/escrows/${id}`, bearer(seller.token))).body;
    expect(sellerView.allowed_actions).toEqual(expect.arrayContaining(['accept_proposal', 'decline_proposal']));
    const [mail] = await mailTo('sam@example.com', 'Settlement proposed');
    expect(mail!.body).toContain('The buyer of escrow');
    expect(mail!.body).toContain('a split, 70% to the seller and 30% to the buyer');
    expect(mail!.body).toContain(`https://escrow.example/escrow/${id}`);
  });

  it('refuses bad input with a detail naming the field, and a second open proposal with 409', async () => {
    const { buyer, seller, id } = await openFundedDeal(t);
    expect(await propose(id, buyer.token, { kind: 'swap' })).toMatchObject({
      status: 422,
      detail: expect.stringContaining('kind must be one of'),
    });
    expect(await propose(id, buyer.token, { kind: 'split', seller_percent: 0 })).toMatchObject({
      status: 422,
      detail: expect.stringContaining('seller_percent'),
    });
    expect(await propose(id, buyer.token, { kind: 'split' })).toMatchObject({
      status: 422,
      detail: 'seller_percent is required for split',
    });
    expect(await propose(id, buyer.token, { kind: 'refund', note: 'x'.repeat(1001) })).toMatchObject({
      status: 422,
      detail: expect.stringContaining('note'),
    });
    expect(await propose(id, buyer.token, { kind: 'cancel' })).toMatchObject({
      status: 409,
      detail: expect.stringContaining('before the payment is marked'),
    });
    expect((await propose(id, buyer.token, { kind: 'refund' })).status).toBe(200);
    expect(await propose(id, seller.token, { kind: 'split', seller_percent: 50 })).toMatchObject({
      status: 409,
      detail: expect.stringContaining('already open'),
    });
  });

  it('answers 404 to a user who is not a party', async () => {
    const { id } = await openFundedDeal(t);
    const stranger = await signedInUser(t, 'zoe', 'buyer');
    expect((await propose(id, stranger.token, { kind: 'refund' })).status).toBe(404);
  });
});

describe('answering a proposal', () => {
  it('moves the payment deadline at once when an extension is accepted, and mails the proposer', async () => {
    const { buyer, seller, id } = await unpaidDeal();
    const before = (await call(`/api/escrows/${id}`, bearer(buyer.token))).body.payment_due_at as string;
    const made = await propose(id, buyer.token, { kind: 'extend_deadline', days: 5 });
    const pid = made.body.proposals[0]!.id;
    expect((await answer(id, pid, 'accept', buyer.token)).status).toBe(403);
    const accepted = await answer(id, pid, 'accept', seller.token);
    expect(accepted.status).toBe(200);
    expect(Date.parse(accepted.body.payment_due_at as string) - Date.parse(before)).toBe(5 * 86_400_000);
    expect(accepted.body.proposals[0]!.status).toBe('accepted');
    const [mail] = await mailTo('ann@example.com', 'Proposal accepted');
    expect(mail!.body).toContain('The payment deadline is now');
  });

  it('cancels the escrow when a cancel is accepted, freeing its address', async () => {
    const { buyer, seller, id } = await unpaidDeal();
    const pid = (await propose(id, seller.token, { kind: 'cancel' })).body.proposals[0]!.id;
    const accepted = await answer(id, pid, 'accept', buyer.token);
    expect(accepted.body).toMatchObject({ status: 'cancelled', allowed_actions: [] });
    const address = await t.database.db.selectFrom('addresses').select('status').executeTakeFirstOrThrow();
    expect(address.status).toBe('available');
  });

  it('declines with an optional reason, mailed to the proposer; the maker withdraws; old or unknown ids are refused', async () => {
    const { buyer, seller, id } = await openFundedDeal(t);
    const first = (await propose(id, buyer.token, { kind: 'refund' })).body.proposals[0]!.id;
    const declined = await answer(id, first, 'decline', seller.token, { reason: 'It arrived fine' });
    expect(declined.body.proposals[0]!.status).toBe('declined');
    const [mail] = await mailTo('ann@example.com', 'Proposal declined');
    expect(mail!.body).toContain('It arrived fine');
    expect(await answer(id, first, 'accept', seller.token)).toMatchObject({
      status: 409,
      detail: 'This proposal is no longer open',
    });
    expect((await answer(id, UNKNOWN, 'accept', seller.token)).status).toBe(404);
    const second = (await propose(id, seller.token, { kind: 'split', seller_percent: 90 })).body.proposals[1]!.id;
    expect((await answer(id, second, 'withdraw', buyer.token)).status).toBe(403);
    const withdrawn = await answer(id, second, 'withdraw', seller.token);
    expect(withdrawn.body.proposals.map((p) => p.status)).toEqual(['declined', 'withdrawn']);
    expect((await mailTo('ann@example.com', 'Proposal withdrawn')).length).toBe(1);
    const stranger = await signedInUser(t, 'zoe', 'buyer');
    expect((await answer(id, second, 'withdraw', stranger.token)).status).toBe(404);
  });
});

describe('an agreed settlement, executed by the admins', () => {
  it('lists an accepted split as ready, mails the admins, and is executed by a resolve without outcome text', async () => {
    const { admin, buyer, seller, id } = await openFundedDeal(t, { payout: PAYOUT, refund: REFUND });
    const pid = (await propose(id, buyer.token, { kind: 'split', seller_percent: 70 })).body.proposals[0]!.id;
    expect((await answer(id, pid, 'accept', seller.token)).body.ready_to_release).toBe(true);
    const page = (await (await t.app.request('/api/admin/escrows?ready=true', bearer(admin.token))).json()) as {
      ready_count: number;
      escrows: Escrow[];
    };
    expect(page.ready_count).toBe(1);
    expect(page.escrows.map((e) => e.id)).toEqual([id]);
    expect(page.escrows[0]!.allowed_actions).toContain('resolve');
    const [mail] = await mailTo('root@example.com', 'Settlement agreed');
    expect(mail!.body).toContain('agreed to a split, 70% to the seller');
    const release = await call(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token));
    expect(release).toMatchObject({ status: 409, detail: expect.stringContaining('agreed to a split') });
    const resolved = await call(`/api/admin/escrows/${id}/resolve`, form({}, admin.token));
    expect(resolved.body).toMatchObject({
      status: 'released',
      seller_sats: 1_400_000,
      buyer_sats: 600_000,
      fee_sats: 30_000,
    });
    const [event] = await t.database.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'DisputeResolved')
      .execute();
    expect(event!.data).toMatchObject({ dispute_id: null, proposal_id: pid, resolution: 'split', seller_percent: 70 });
    expect(await t.database.db.selectFrom('disputes').selectAll().execute()).toEqual([]);
  });

  it('has an accepted refund executed by the admin refund, which records the proposal', async () => {
    const { admin, buyer, seller, id } = await openFundedDeal(t, { refund: REFUND });
    const pid = (await propose(id, seller.token, { kind: 'refund' })).body.proposals[0]!.id;
    await answer(id, pid, 'accept', buyer.token);
    const refunded = await call(`/api/admin/escrows/${id}/refund`, form({}, admin.token));
    expect(refunded.body).toMatchObject({ status: 'refunded', buyer_sats: 2_030_000 });
    const [event] = await t.database.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'EscrowRefunded')
      .execute();
    expect(event!.data).toMatchObject({ proposal_id: pid });
  });

  it('without a settlement or dispute, the admin resolve is refused', async () => {
    const { admin, id } = await openFundedDeal(t, { payout: PAYOUT, refund: REFUND });
    expect(
      await call(`/api/admin/escrows/${id}/resolve`, form({ resolution: 'split', seller_percent: '50' }, admin.token)),
    ).toMatchObject({
      status: 409,
      detail: expect.stringContaining('no open dispute or agreed settlement'),
    });
  });
});
