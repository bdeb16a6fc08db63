import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../http/app.ts';
import { bearer, form, json } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

const TOKEN = 'scrape-me-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ METRICS_TOKEN: TOKEN });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

/** The value of one series in Prometheus' text format (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
const scrape = async () => {
  const res = await t.app.request('/metrics', bearer(TOKEN));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

describe('GET /metrics', () => {
  it('is refused without the bearer token, or with another one', async () => {
    const none = await t.app.request('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await t.app.request('/metrics', bearer('scrape-me-0123456789abcdeX'))).status).toBe(401);
    expect(await none.text()).not.toContain('escrow_');
  });

  it('is not served on the main port at all when METRICS_TOKEN is unset', async () => {
    const bare = createApp({ ...t.deps, config: { ...t.deps.config, METRICS_TOKEN: undefined } });
    const res = await bare.request('/metrics', bearer(TOKEN));
    expect(res.status).toBe(404);
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    await t.app.request('/api/health');
    await t.app.request(`/api/escrows/${id}`); // anonymous: 401
    const text = await scrape();
    expect(
      sample(text, 'escrow_http_requests_total{method="GET",route="/api/health",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'escrow_http_requests_total{method="GET",route="/api/escrows/:id",status="401"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(id); // a pattern, never the path: no series per escrow
    expect(
      sample(text, 'escrow_http_request_duration_seconds_count{method="GET",route="/api/health"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /escrow_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/health"\} \d+/,
    );
  });

  it('reports the escrows, the pool, the satoshis held, the rate, the outbox, the appends and the chain', async () => {
    const before = sample(await scrape(), 'escrow_appends_total{outcome="committed"}') ?? 0;
    const pool = [freshAddress(), freshAddress(), freshAddress()];
    const { admin, buyer } = await openMarket(t, pool);
    const created = await t.app.request(
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
    );
    const escrow = (await created.json()) as { id: string; amount_sats: number };
    await t.app.request(`/api/escrows/${escrow.id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    const verified = await t.app.request(
      `/api/admin/escrows/${escrow.id}/verify-payment`,
      form({ verified: 'true' }, admin.token),
    );
    expect(verified.status).toBe(200);
    await t.app.request(
      '/api/escrows',
      json(
        { product_service: 'Lens', description: 'Prime', amount_usd: '20.00', seller_email: 'sam@example.com' },
        buyer.token,
      ),
    );

    const text = await scrape();
    expect(sample(text, 'escrow_escrows{status="funded"}')).toBe(1);
    expect(sample(text, 'escrow_escrows{status="pending_payment"}')).toBe(1);
    expect(sample(text, 'escrow_escrows{status="released"}')).toBe(0);
    expect(sample(text, 'escrow_satoshis_held')).toBe(escrow.amount_sats);
    expect(sample(text, 'escrow_pool_addresses{status="used"}')).toBe(1);
    expect(sample(text, 'escrow_pool_addresses{status="assigned"}')).toBe(1);
    expect(sample(text, 'escrow_pool_addresses{status="available"}')).toBe(1);
    expect(sample(text, 'escrow_btc_rate_set')).toBe(1);
    expect(sample(text, 'escrow_btc_rate_age_seconds')).toBeLessThan(60);
    expect(sample(text, 'escrow_mail_outbox{state="queued"}')).toBeGreaterThan(0); // nothing delivers mail in this test
    expect(sample(text, 'escrow_mail_outbox{state="given_up"}')).toBe(0);
    expect(sample(text, 'escrow_appends_total{outcome="committed"}')! - before).toBeGreaterThan(5);
    expect(sample(text, 'escrow_chain_head_position')).toBeGreaterThan(5);
    expect(sample(text, 'escrow_chain_watch_status{status="unverified"}')).toBe(1);

    await t.deps.chainWatch!.check();
    const checked = await scrape();
    expect(sample(checked, 'escrow_chain_watch_status{status="ok"}')).toBe(1);
    expect(sample(checked, 'escrow_chain_verified_up_to')).toBe(sample(checked, 'escrow_chain_head_position'));
  });

  it('counts an append refused by a duplicate as a conflict', async () => {
    const { admin } = await openMarket(t);
    const address = freshAddress();
    await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
    const again = await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
    expect(again.status).toBe(409);
    expect(sample(await scrape(), 'escrow_appends_total{outcome="conflict"}')).toBeGreaterThanOrEqual(1);
  });
});
