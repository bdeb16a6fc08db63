import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, enableTwoFactorFor, form, freshCode, json, lastMailTo } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * One verified buyer taking the pool: escrows opened in a row each hold an address for up to 90 days. A cap on the
 * unpaid escrows holding an address per buyer, counted so that concurrent requests cannot pass it (on PostgreSQL
 * they really run at once); admin powers to cancel an unpaid escrow, or all of a suspended account's, freeing the
 * addresses; and pool additions of many addresses with one code.
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ MAX_UNPAID_ESCROWS: '3', RATE_LIMIT_ESCROWS: '100' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = Record<string, unknown> & { id: string; status: string; payment_address: string | null };
const body = async (res: Response) => (await res.json()) as { detail: string; code?: string } & Record<string, unknown>;
const open = (token: string) =>
  t.app.request(
    '/api/escrows',
    json(
      {
        product_service: 'Camera',
        description: 'Mirrorless',
        amount_usd: '100.00',
        seller_email: 'sam@example.com',
        deadline_days: 90,
      },
      token,
    ),
  );
const assignedAddresses = async () =>
  (await t.database.db.selectFrom('addresses').select('id').where('status', '=', 'assigned').execute()).length;

/** An admin with 2FA on: every power takes a fresh code. */
async function withAdminCode(market: Awaited<ReturnType<typeof openMarket>>) {
  const { secret } = await enableTwoFactorFor(t, market.admin.token);
  return () => freshCode(t, market.admin.id, secret);
}

describe('the cap on unpaid escrows holding a pool address', () => {
  it('lets a buyer open more escrows, but gives an address to at most MAX_UNPAID_ESCROWS of them', async () => {
    const market = await openMarket(
      t,
      Array.from({ length: 8 }, () => freshAddress()),
    );
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await open(market.buyer.token);
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as Escrow).id);
    }
    expect(await assignedAddresses()).toBe(3);
    const pay = await t.app.request(`/api/escrows/${ids[4]}/request-payment`, bearer(market.buyer.token, 'POST'));
    expect(pay.status).toBe(409);
    expect(await body(pay)).toMatchObject({
      code: 'unpaid_escrow_limit',
      detail: expect.stringContaining('3 unpaid escrows'),
    });
    // Cancelling one frees a place.
    expect((await t.app.request(`/api/escrows/${ids[0]}/cancel`, bearer(market.buyer.token, 'POST'))).status).toBe(200);
    expect(
      (await t.app.request(`/api/escrows/${ids[4]}/request-payment`, bearer(market.buyer.token, 'POST'))).status,
    ).toBe(200);
    expect(await assignedAddresses()).toBe(3);
  });

  it('holds against concurrent Make Payment requests', async () => {
    const market = await openMarket(t);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(((await (await open(market.buyer.token)).json()) as Escrow).id);
    for (let i = 0; i < 10; i++)
      await t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, market.admin.token));
    const answers = await Promise.all(
      ids.map((id) => t.app.request(`/api/escrows/${id}/request-payment`, bearer(market.buyer.token, 'POST'))),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    for (const a of answers.filter((r) => r.status !== 200))
      expect([a.status, (await body(a)).code]).toEqual([409, 'unpaid_escrow_limit']);
    expect(await assignedAddresses()).toBe(3);
  });

  it('holds against concurrent creates', async () => {
    const market = await openMarket(
      t,
      Array.from({ length: 10 }, () => freshAddress()),
    );
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(market.buyer.token)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(await assignedAddresses()).toBe(3);
  });
});

describe('an admin cancels an unpaid escrow', () => {
  it('with the code and a reason: cancelled, the address freed, both parties mailed, in the audit log', async () => {
    const market = await openMarket(t, [freshAddress()]);
    const code = await withAdminCode(market);
    const { id } = (await (await open(market.buyer.token)).json()) as Escrow;
    const noReason = await t.app.request(
      `/api/admin/escrows/${id}/cancel`,
      form({ reason: ' ', totp_code: await code() }, market.admin.token),
    );
    expect([noReason.status, (await body(noReason)).detail]).toEqual([422, 'reason is required']);
    const noCode = await t.app.request(
      `/api/admin/escrows/${id}/cancel`,
      form({ reason: 'Hoarding pool addresses' }, market.admin.token),
    );
    expect([noCode.status, (await body(noCode)).code]).toEqual([422, 'totp_required']);

    const res = await t.app.request(
      `/api/admin/escrows/${id}/cancel`,
      form({ reason: 'Hoarding pool addresses', totp_code: await code() }, market.admin.token),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Escrow).status).toBe('cancelled');
    expect(await assignedAddresses()).toBe(0);
    expect((await t.database.db.selectFrom('addresses').select('status').executeTakeFirstOrThrow()).status).toBe(
      'available',
    );
    for (const to of ['ann@example.com', 'sam@example.com']) {
      const mail = await lastMailTo(t, to);
      expect(mail.subject).toBe(`Escrow cancelled: escrow ${id.slice(0, 8)}`);
      expect(mail.body).toContain('An admin cancelled');
      expect(mail.body).toContain('> Hoarding pool addresses');
    }
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action_type', '=', 'EscrowCancelled')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ object_id: id, actor_user_id: market.admin.id });
    const history = (await (await t.app.request(`/api/escrows/${id}/history`, bearer(market.buyer.token))).json()) as {
      summary: string;
      reason: string | null;
    }[];
    expect(history.at(-1)).toMatchObject({
      summary: 'Cancelled by an admin before any payment',
      reason: 'Hoarding pool addresses',
    });
  });

  it('refuses once the buyer marked the payment, and refuses anyone but an admin', async () => {
    const market = await openMarket(t, [freshAddress()]);
    const { id } = (await (await open(market.buyer.token)).json()) as Escrow;
    expect(
      (await t.app.request(`/api/admin/escrows/${id}/cancel`, form({ reason: 'x' }, market.buyer.token))).status,
    ).toBe(403);
    expect(
      (await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, market.buyer.token))).status,
    ).toBe(200);
    const marked = await t.app.request(`/api/admin/escrows/${id}/cancel`, form({ reason: 'x' }, market.admin.token));
    expect(marked.status).toBe(409);
    expect((await body(marked)).detail).toMatch(/marked this escrow as paid/);
  });
});

describe("cancelling a suspended account's unpaid escrows", () => {
  it('is one action: every unpaid escrow of the account is cancelled and its address freed', async () => {
    const market = await openMarket(
      t,
      Array.from({ length: 5 }, () => freshAddress()),
    );
    const code = await withAdminCode(market);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await (await open(market.buyer.token)).json()) as Escrow).id);
    // A paid one stays.
    expect(
      (await t.app.request(`/api/escrows/${ids[2]}/mark-paid`, form({ notes: 'sent' }, market.buyer.token))).status,
    ).toBe(200);
    const path = `/api/admin/users/${market.buyer.id}/cancel-unpaid-escrows`;
    const notSuspended = await t.app.request(
      path,
      form({ reason: 'Abuse', totp_code: await code() }, market.admin.token),
    );
    expect([notSuspended.status, (await body(notSuspended)).detail]).toEqual([
      409,
      expect.stringMatching(/Suspend the account first/),
    ]);
    expect(
      (
        await t.app.request(
          `/api/admin/users/${market.buyer.id}/suspend`,
          form({ reason: 'Abuse', totp_code: await code() }, market.admin.token),
        )
      ).status,
    ).toBe(200);
    expect((await t.app.request(path, form({ reason: 'Abuse' }, market.admin.token))).status).toBe(422);

    const res = await t.app.request(
      path,
      form({ reason: 'Abuse of the pool', totp_code: await code() }, market.admin.token),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      detail: '2 unpaid escrows cancelled',
      cancelled: [ids[0], ids[1]],
      skipped: [],
    });
    const statuses = await t.database.db.selectFrom('escrows').select(['id', 'status']).orderBy('created_at').execute();
    expect(statuses.map((s) => s.status)).toEqual(['cancelled', 'cancelled', 'pending_payment']);
    expect(await assignedAddresses()).toBe(1);
  });
});

describe('adding many pool addresses at once', () => {
  it('takes one code for the lot, checks each address and answers each in order', async () => {
    const market = await openMarket(t);
    const code = await withAdminCode(market);
    const good = Array.from({ length: 6 }, () => freshAddress());
    const addresses = [...good, 'not-an-address', good[0]!];
    const noCode = await t.app.request('/api/admin/addresses/bulk', json({ addresses }, market.admin.token));
    expect([noCode.status, (await body(noCode)).code]).toEqual([422, 'totp_required']);

    const res = await t.app.request(
      '/api/admin/addresses/bulk',
      json({ addresses, totp_code: await code() }, market.admin.token),
    );
    expect(res.status).toBe(200);
    const answer = (await res.json()) as {
      detail: string;
      added: number;
      refused: number;
      results: { address: string; added: boolean; id: string | null; detail: string | null }[];
    };
    expect(answer).toMatchObject({ detail: '6 addresses added, 2 refused', added: 6, refused: 2 });
    expect(answer.results.map((r) => r.added)).toEqual([true, true, true, true, true, true, false, false]);
    expect(answer.results[6]!.detail).toMatch(/^This address /);
    expect(answer.results[7]!.detail).toBe('This address is already in the pool');
    expect((await t.database.db.selectFrom('addresses').select('id').execute()).length).toBe(6);
    const events = await t.database.db.selectFrom('events').select('type').where('type', '=', 'AddressAdded').execute();
    expect(events).toHaveLength(6);
  });

  it('refuses a body that is not a list, naming the field', async () => {
    const market = await openMarket(t);
    for (const addresses of [undefined, 'bc1q', [], Array(201).fill('x')]) {
      const res = await t.app.request('/api/admin/addresses/bulk', json({ addresses }, market.admin.token));
      expect(res.status).toBe(422);
      expect((await body(res)).detail).toContain('addresses');
    }
  });
});
