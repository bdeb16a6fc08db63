import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, form, json, tokenInMail } from '../../../../testing/accounts.ts';
import { openMarket } from '../../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../../testing/test-app.ts';

type Page = {
  total: number;
  escrows: {
    id: string;
    status: string;
    side: string;
    buyer_email: string;
    seller_email: string;
    product_service: string;
  }[];
};

let t: TestApp;
let admin: { token: string };
const ids: string[] = [];
beforeAll(async () => {
  t = await openTestApp();
  const market = await openMarket(t);
  admin = market.admin;
  // The buyer's e-mail verified too, so opening escrows needs nothing else.
  const mail = await t.database.db
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', 'ann@example.com')
    .executeTakeFirstOrThrow();
  await t.app.request('/api/auth/verify-email', json({ token: tokenInMail(mail.body) }));
  const open = async (token: string, body: Record<string, unknown>) => {
    const res = await t.app.request(
      '/api/escrows',
      json({ product_service: 'Item', description: 'An item', amount_usd: 100, ...body }, token),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  for (let i = 0; i < 5; i++)
    ids.push(await open(market.buyer.token, { product_service: `Item ${i}`, seller_email: 'sam@example.com' }));
  ids.push(await open(market.buyer.token, { product_service: 'Rare 100%_item', seller_email: 'odd_one@example.com' }));
  expect(
    (await t.app.request(`/api/admin/escrows/${ids[0]}/freeze`, form({ reason: 'Check' }, admin.token))).status,
  ).toBe(200);
});
afterAll(async () => t.close());

const list = async (query = '') => {
  const res = await t.app.request(`/api/admin/escrows${query}`, bearer(admin.token));
  expect(res.status, query).toBe(200);
  return (await res.json()) as Page;
};

describe('GET /api/admin/escrows', () => {
  it('lists every escrow newest first as admins see them, with the total', async () => {
    const page = await list();
    expect(page.total).toBe(6);
    expect(page.escrows.map((e) => e.id)).toEqual([...ids].reverse());
    expect(page.escrows.every((e) => e.side === 'admin')).toBe(true);
  });

  it('pages on the server: limit and offset, the total unchanged', async () => {
    const first = await list('?limit=4');
    const second = await list('?limit=4&offset=4');
    expect(first.escrows).toHaveLength(4);
    expect(second.escrows.map((e) => e.id)).toEqual([ids[1], ids[0]]);
    expect(second.total).toBe(6);
  });

  it('filters by status', async () => {
    const frozen = await list('?status=frozen');
    expect(frozen).toMatchObject({ total: 1, escrows: [{ id: ids[0], status: 'frozen' }] });
    expect((await list('?status=released')).total).toBe(0);
  });

  it('searches by the start of an id or any part of an e-mail, with % and _ as plain letters', async () => {
    expect((await list(`?search=${ids[2]!.slice(0, 8).toUpperCase()}`)).escrows.map((e) => e.id)).toEqual([ids[2]]);
    expect((await list('?search=odd_one')).escrows.map((e) => e.id)).toEqual([ids[5]]);
    expect((await list('?search=ANN@EXAMPLE')).total).toBe(6);
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?search=_')).escrows.map((e) => e.id)).toEqual([ids[5]]);
    expect((await list('?status=frozen&search=sam@')).total).toBe(1);
  });

  it('refuses a bad query with a detail naming the field', async () => {
    for (const [query, field] of [
      ['?status=lost', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
    ] as const) {
      const res = await t.app.request(`/api/admin/escrows${query}`, bearer(admin.token));
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain(field);
    }
  });
});
