import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, form, json } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

// Integer fields take decimal digits only: z.coerce (Number()) also read "0x7", "1e1", "0b1" and "" as numbers.

let t: TestApp;
let market: Awaited<ReturnType<typeof openMarket>>;
beforeAll(async () => {
  t = await openTestApp();
  market = await openMarket(t);
});
afterAll(async () => t.close());

const refusal = async (res: Response) => [res.status, ((await res.json()) as { detail: string }).detail];
const escrow = (deadline_days: unknown) =>
  json(
    {
      product_service: 'Camera',
      description: 'Mirrorless',
      amount_usd: '100.00',
      seller_email: 'sam@example.com',
      deadline_days,
    },
    market.buyer.token,
  );
const NOT_DIGITS = ['0x7', '1e1', '0b1', '7.0', ' 7', '+7', '', '٧'];

describe('integer fields', () => {
  it.each(NOT_DIGITS)('deadline_days %j is refused, naming the field', async (value) => {
    expect(await refusal(await t.app.request('/api/escrows', escrow(value)))).toEqual([
      422,
      'deadline_days must be a whole number written in decimal digits',
    ]);
  });

  it('deadline_days in digits, as text or as a JSON integer, is taken', async () => {
    for (const value of ['7', '07', 30, undefined]) {
      const res = await t.app.request('/api/escrows', escrow(value));
      expect(res.status, String(value)).toBe(201);
    }
    expect(await refusal(await t.app.request('/api/escrows', escrow(7.5)))).toEqual([
      422,
      'deadline_days must be a whole number written in decimal digits',
    ]);
    expect(await refusal(await t.app.request('/api/escrows', escrow('91')))).toEqual([
      422,
      'deadline_days must be from 1 to 90',
    ]);
  });

  it.each(['0x32', '5e1', '50.0'])('seller_percent %j is refused', async (value) => {
    const res = await t.app.request(
      `/api/admin/disputes/${randomUUID()}/resolve`,
      form({ outcome: 'split it', resolution: 'split', seller_percent: value }, market.admin.token),
    );
    expect(await refusal(res)).toEqual([422, 'seller_percent must be a whole number written in decimal digits']);
  });

  it('paging parameters', async () => {
    expect(await refusal(await t.app.request('/api/reviews?limit=0x10'))).toEqual([
      422,
      'limit must be a whole number written in decimal digits',
    ]);
    expect(await refusal(await t.app.request('/api/reviews?skip=1e1'))).toEqual([
      422,
      'skip must be a whole number written in decimal digits',
    ]);
    expect((await t.app.request('/api/reviews?skip=10&limit=5')).status).toBe(200);
    expect(await refusal(await t.app.request('/api/admin/events?after=0x1', bearer(market.admin.token)))).toEqual([
      422,
      'after must be a whole number written in decimal digits',
    ]);
    expect(await refusal(await t.app.request('/api/admin/audit-logs?limit=1e2', bearer(market.admin.token)))).toEqual([
      422,
      'limit must be a whole number written in decimal digits',
    ]);
    expect(await refusal(await t.app.request('/api/admin/events/export?from=0b1', bearer(market.admin.token)))).toEqual(
      [422, 'from must be a whole number written in decimal digits'],
    );
  });

  it('a rating is a decimal as a person writes it', async () => {
    const review = (rating: unknown) =>
      json({ name: 'Ann', country: 'Norway', rating, text: 'Smooth deal', terms_accepted: true });
    expect(await refusal(await t.app.request('/api/reviews', review('0x5')))).toEqual([
      422,
      'rating must be a number written in decimal digits',
    ]);
    expect((await t.app.request('/api/reviews', review('4.5'))).status).toBe(201);
    expect(await refusal(await t.app.request('/api/reviews?min_rating=3e0'))).toEqual([
      422,
      'min_rating must be a number written in decimal digits',
    ]);
  });
});
