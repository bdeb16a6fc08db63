import fc from 'fast-check';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { feeCents, formatCents, formatSats, MAX_SATS } from '../../../../domain/money.ts';
import { openAppStore } from '../../../app-store.ts';
import { createApp } from '../../app.ts';
import {
  bearer,
  codeFor,
  form,
  json,
  lastMailTo,
  signedInAdmin,
  signedInUser,
  tokenInMail,
  verifiedUser,
} from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ RATE_LIMIT_ESCROWS: '100', MAX_UNPAID_ESCROWS: '100' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = Record<string, unknown> & { id: string; status: string; side: string; assigned_address: string | null };
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;
const ADDRESSES = [
  'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
];

async function market(options: { addresses?: string[] } = {}) {
  const admin = await signedInAdmin(t);
  await t.app.request(
    '/api/admin/btc-rate',
    form({ btc_usd_rate: '50000', fee_percentage: '1.5' }, admin.token, 'PUT'),
  );
  for (const address of options.addresses ?? [])
    await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
  const buyer = await verifiedUser(t, 'ann', 'buyer');
  const seller = await signedInUser(t, 'sam', 'seller');
  return { admin, buyer, seller };
}
const deal = (overrides: Record<string, unknown> = {}) => ({
  product_service: 'Laptop',
  description: 'Used laptop, 16 GB',
  amount_usd: 1000,
  deadline_days: 7,
  seller_email: 'sam@example.com',
  ...overrides,
});
async function verifyEmail(username: string) {
  const mail = await t.database.db
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', `${username}@example.com`)
    .where('subject', '=', 'Confirm your e-mail address')
    .executeTakeFirstOrThrow();
  const token = tokenInMail(mail.body);
  expect((await t.app.request('/api/auth/verify-email', json({ token }))).status).toBe(200);
}

describe('POST /api/escrows', () => {
  it('opens an escrow with the figures in force, ignoring money fields a client sends', async () => {
    const { buyer } = await market();
    const res = await t.app.request(
      '/api/escrows',
      json(deal({ escrow_fee: 1, total_usd: 1, amount_btc: 1, status: 'released' }), buyer.token),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      status: 'pending_payment',
      side: 'buyer',
      amount_usd: 1000,
      escrow_fee: 15,
      total_usd: 1015,
      fee_percentage: 1.5,
      amount_btc: 0.0203,
      amount_sats: 2_030_000,
      buyer_email: 'ann@example.com',
      seller_email: 'sam@example.com',
      assigned_address: null,
      deadline_days: 7,
    });
    const invite = await lastMailTo(t, 'sam@example.com');
    expect(invite.subject).toBe('You are invited to an escrow');
    expect(invite.body).toContain('What it is for (their own words, not checked by us):\n> Laptop');
    expect(invite.body).toContain('$1,000.00 + $15.00 fee = $1,015.00 (0.02030000 BTC)');
  });

  it('answers 503 until a rate is set', async () => {
    const buyer = await verifiedUser(t, 'ann');
    const res = await t.app.request('/api/escrows', json(deal(), buyer.token));
    expect([res.status, await detail(res)]).toEqual([
      503,
      'The BTC/USD rate has not been set yet; escrows cannot be created until an admin sets it',
    ]);
  });

  it.each([
    [{ amount_usd: 0 }, 'amount_usd must be more than 0'],
    [{ amount_usd: -5 }, 'amount_usd must be positive'],
    [{ amount_usd: '12.345' }, 'amount_usd has more than 2 decimal places'],
    [{ deadline_days: 0 }, 'deadline_days must be from 1 to 90'],
    [{ deadline_days: 91 }, 'deadline_days must be from 1 to 90'],
    [{ seller_email: 'ANN@example.com' }, 'The counterparty e-mail must differ from your own'],
    [{ seller_email: undefined }, 'seller_email is required'],
    [{ product_service: ' ' }, 'product_service is required'],
    // An address the e-mail check passes but too long for any mailbox: 422, never a 500 from the event's own schema.
    [{ seller_email: `${'a'.repeat(250)}@example.com` }, 'seller_email must be at most 254 characters'],
  ])('refuses %o: %s', async (overrides, message) => {
    const { buyer } = await market();
    const res = await t.app.request('/api/escrows', json(deal(overrides), buyer.token));
    expect([res.status, await detail(res)]).toEqual([422, message]);
    expect(await t.database.db.selectFrom('escrows').select('id').execute()).toEqual([]);
  });

  it('answers decimals that are exactly the stored integers, and BTC that covers the total, for any amount and rate', async () => {
    const { admin, buyer } = await market();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 99_999_999_99 }),
        fc.integer({ min: 100, max: 50_000_000_00 }),
        fc.integer({ min: 0, max: 1000 }),
        async (cents, rateCents, bps) => {
          const rate = formatCents(rateCents);
          const fee = formatCents(bps);
          expect(
            (
              await t.app.request(
                '/api/admin/btc-rate',
                form({ btc_usd_rate: rate, fee_percentage: fee }, admin.token, 'PUT'),
              )
            ).status,
          ).toBe(200);
          const res = await t.app.request('/api/escrows', json(deal({ amount_usd: formatCents(cents) }), buyer.token));
          if (res.status === 422) {
            const total = BigInt(cents + feeCents(cents, bps)) * 100_000_000n;
            const why = await detail(res);
            if (why.startsWith('amount_usd is too small')) {
              // At or under Bitcoin's dust limit of 546 satoshis.
              expect(total).toBeLessThanOrEqual(546n * BigInt(rateCents));
              return;
            }
            // Only when the BTC would be 10,000,000 or more: beyond what an 8-decimal JSON number holds exactly.
            expect(why).toBe('amount_usd is too large to be paid in Bitcoin at the current rate');
            expect(total).toBeGreaterThan(MAX_SATS * BigInt(rateCents));
            return;
          }
          const body = (await res.json()) as Record<string, number> & { id: string };
          const row = await t.database.db
            .selectFrom('escrows')
            .selectAll()
            .where('id', '=', body.id)
            .executeTakeFirstOrThrow();
          expect(row.amount_cents).toBe(cents);
          expect([
            body.amount_usd!.toFixed(2),
            body.escrow_fee!.toFixed(2),
            body.total_usd!.toFixed(2),
            body.amount_btc!.toFixed(8),
          ]).toEqual([
            formatCents(row.amount_cents),
            formatCents(row.fee_cents),
            formatCents(row.total_cents),
            formatSats(row.amount_sats),
          ]);
          expect(row.total_cents).toBe(row.amount_cents + row.fee_cents);
          expect(BigInt(row.amount_sats) * BigInt(rateCents) >= BigInt(row.total_cents) * 100_000_000n).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("answers the new escrow as its page shows it, from its creation's own statement, without reading it back", async () => {
    const { seller } = await market();
    await verifyEmail('sam');
    const reads: string[] = [];
    const db = new Proxy(t.database.db, {
      get(target, prop) {
        if (prop === 'executeQuery')
          return (query: CompiledQuery) => {
            if (query.sql.includes('from "escrows" as "e"')) reads.push(query.sql);
            return target.executeQuery(query);
          };
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const app = createApp({ ...t.deps, database: { ...t.database, db }, store: openAppStore(db, t.deps.config) });
    const res = await app.request(
      '/api/escrows',
      json(deal({ seller_email: undefined, buyer_email: 'ann@example.com' }), seller.token),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as Escrow;
    expect(reads).toEqual([]);
    const page = (await (await t.app.request(`/api/escrows/${created.id}`, bearer(seller.token))).json()) as Escrow;
    const { evidence, ...shown } = page;
    expect(evidence).toEqual([]);
    expect(created).toStrictEqual(shown);
    expect(created).toMatchObject({ side: 'seller', status: 'pending_payment', buyer_email: 'ann@example.com' });
  });

  it('answers each of many escrows opened at once (written together) with its own', async () => {
    const { seller } = await market();
    await verifyEmail('sam');
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await t.app.request(
          '/api/escrows',
          json(
            deal({ seller_email: undefined, buyer_email: 'ann@example.com', product_service: `Item ${i}` }),
            seller.token,
          ),
        );
        return [res.status, (await res.json()) as Escrow] as const;
      }),
    );
    for (const [i, [status, created]] of answers.entries()) {
      expect([status, created.product_service]).toEqual([201, `Item ${i}`]);
      const { evidence: _, ...shown } = (await (
        await t.app.request(`/api/escrows/${created.id}`, bearer(seller.token))
      ).json()) as Escrow;
      expect(created).toStrictEqual(shown);
    }
  });

  it('gives a buyer a free pool address at once', async () => {
    const { buyer } = await market({ addresses: ADDRESSES.slice(0, 1) });
    const escrow = (await (await t.app.request('/api/escrows', json(deal(), buyer.token))).json()) as Escrow;
    expect(escrow.assigned_address).toBe(ADDRESSES[0]);
  });

  it('needs the 2FA code of a user who has 2FA on', async () => {
    const { buyer } = await market();
    const { secret } = (await (await t.app.request('/api/auth/setup-2fa', bearer(buyer.token, 'POST'))).json()) as {
      secret: string;
    };
    await t.app.request('/api/auth/verify-2fa', form({ totp_code: codeFor(secret) }, buyer.token));
    const without = await t.app.request('/api/escrows', json(deal(), buyer.token));
    expect([without.status, await detail(without)]).toEqual([422, '2FA code required to create escrow']);
    const withCode = await t.app.request(
      '/api/escrows',
      json(deal({ totp_code: codeFor(secret, new Date(Date.now() + 30_000)) }), buyer.token),
    );
    expect(withCode.status).toBe(201);
  });

  it('is refused to admins and to anonymous callers', async () => {
    const { admin } = await market();
    expect((await t.app.request('/api/escrows', json(deal(), admin.token))).status).toBe(403);
    expect((await t.app.request('/api/escrows', json(deal()))).status).toBe(401);
  });
});

describe('who sees an escrow', () => {
  it('shows it to its creator and admins, to the counterparty only once their e-mail is verified, to nobody else', async () => {
    const { admin, buyer, seller } = await market();
    const stranger = await signedInUser(t, 'zoe');
    const { id } = (await (await t.app.request('/api/escrows', json(deal(), buyer.token))).json()) as Escrow;
    const look = async (token: string) => t.app.request(`/api/escrows/${id}`, bearer(token));
    const list = async (token: string) =>
      ((await (await t.app.request('/api/escrows', bearer(token))).json()) as Escrow[]).map((e) => e.id);
    expect((await look(buyer.token)).status).toBe(200);
    expect((await look(admin.token)).status).toBe(200);
    expect(await list(admin.token)).toEqual([id]);
    expect((await look(stranger.token)).status).toBe(404);
    expect(await list(stranger.token)).toEqual([]);
    expect((await look(seller.token)).status).toBe(404);
    expect(await list(seller.token)).toEqual([]);
    await verifyEmail('sam');
    const seen = await look(seller.token);
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ side: 'seller' });
    expect(await list(seller.token)).toEqual([id]);
  });

  it('lists each escrow exactly as its own page shows it, on the side of whoever asks, with UTC times to the millisecond', async () => {
    const { admin, buyer, seller } = await market({ addresses: [ADDRESSES[0]!] });
    await verifyEmail('sam');
    await t.app.request('/api/escrows', json(deal({ amount_usd: '1234.56' }), buyer.token));
    await t.app.request(
      '/api/escrows',
      json(deal({ amount_usd: 7, seller_email: undefined, buyer_email: 'ann@example.com' }), seller.token),
    );
    for (const [token, sides] of [
      [buyer.token, ['buyer', 'buyer']],
      [seller.token, ['seller', 'seller']],
      [admin.token, ['admin', 'admin']],
    ] as const) {
      const listed = (await (await t.app.request('/api/escrows', bearer(token))).json()) as Escrow[];
      expect(listed.map((e) => e.side)).toEqual(sides);
      for (const escrow of listed) {
        // The page is the list's item and the escrow's evidence files (none here).
        expect(await (await t.app.request(`/api/escrows/${escrow.id}`, bearer(token))).json()).toEqual({
          ...escrow,
          evidence: [],
        });
        for (const time of ['created_at', 'updated_at', 'payment_due_at']) {
          expect(escrow[time]).toBe(new Date(escrow[time] as string).toISOString());
        }
      }
    }
    const [newest, oldest] = (await (await t.app.request('/api/escrows', bearer(buyer.token))).json()) as Escrow[];
    expect([oldest!.amount_usd, newest!.amount_usd, newest!.fee_percentage, newest!.btc_usd_rate]).toEqual([
      1234.56, 7, 1.5, 50000,
    ]);
    for (const e of [newest!, oldest!] as Array<Record<string, number>>) {
      expect(e.total_usd).toBe(Number((e.amount_usd! + e.escrow_fee!).toFixed(2)));
      expect(e.amount_btc).toBe(Number((e.amount_sats! / 1e8).toFixed(8)));
    }
  });
});

describe('the escrow list answered from memory', () => {
  it('is never stale: escrows opened, changed or newly visible through another server process show at once', async () => {
    // A second app on the same database, with its own store and memory: another server process.
    const other = createApp({ ...t.deps, store: openAppStore(t.database.db, t.deps.config) });
    const { admin, buyer, seller } = await market();
    const list = async (token: string) =>
      ((await (await t.app.request('/api/escrows', bearer(token))).json()) as Escrow[]).map(
        (e) => `${e.product_service} ${e.status}`,
      );
    const first = (await (
      await t.app.request('/api/escrows', json(deal({ product_service: 'First' }), buyer.token))
    ).json()) as Escrow;
    expect(await list(buyer.token)).toEqual(['First pending_payment']);
    expect(await list(buyer.token)).toEqual(['First pending_payment']); // now from memory

    expect((await other.request('/api/escrows', json(deal({ product_service: 'Second' }), buyer.token))).status).toBe(
      201,
    );
    expect(await list(buyer.token)).toEqual(['Second pending_payment', 'First pending_payment']);

    const freeze = form({ reason: 'Checking' }, admin.token);
    expect((await other.request(`/api/admin/escrows/${first.id}/freeze`, freeze)).status).toBe(200);
    expect(await list(buyer.token)).toEqual(['Second pending_payment', 'First frozen']);

    // The seller's list changes with no escrow event: their e-mail becomes verified (a user event).
    expect(await list(seller.token)).toEqual([]);
    await verifyEmail('sam');
    expect(await list(seller.token)).toEqual(['Second pending_payment', 'First frozen']);
  });
});

describe('POST /api/escrows/{id}/request-payment', () => {
  /** Escrows the seller opened for ann, each agreed to by her (Make Payment needs the buyer's agreement). */
  async function sellerCreated(count: number, seller: { token: string }, buyer: { token: string }) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.app.request(
        '/api/escrows',
        json(
          { ...deal(), seller_email: undefined, buyer_email: 'ann@example.com', product_service: `Item ${i}` },
          seller.token,
        ),
      );
      const { id } = (await res.json()) as Escrow;
      expect((await t.app.request(`/api/escrows/${id}/agree`, bearer(buyer.token, 'POST'))).status).toBe(200);
      ids.push(id);
    }
    return ids;
  }

  it('gives the buyer an address, refuses the seller and a second request, and says so when the pool is empty', async () => {
    const { buyer, seller } = await market({ addresses: ADDRESSES.slice(0, 1) });
    await verifyEmail('sam');
    const [first, second] = await sellerCreated(2, seller, buyer);
    const bySeller = await t.app.request(`/api/escrows/${first}/request-payment`, bearer(seller.token, 'POST'));
    expect(bySeller.status).toBe(403);
    const ok = await t.app.request(`/api/escrows/${first}/request-payment`, bearer(buyer.token, 'POST'));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Escrow).assigned_address).toBe(ADDRESSES[0]);
    const again = await t.app.request(`/api/escrows/${first}/request-payment`, bearer(buyer.token, 'POST'));
    expect([again.status, await detail(again)]).toEqual([409, 'This escrow already has a payment address']);
    const none = await t.app.request(`/api/escrows/${second}/request-payment`, bearer(buyer.token, 'POST'));
    expect(none.status).toBe(409);
    expect(await detail(none)).toContain('No payment address is free');
    expect((await lastMailTo(t, 'root@example.com')).subject).toBe('The payment address pool is empty');
  });

  it('gives 10 free addresses to exactly 10 of 40 escrows asking at once, never one address twice', async () => {
    const admin = await signedInAdmin(t);
    await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'));
    // Ten valid mainnet P2WPKH addresses: bech32 of distinct 20-byte programs.
    const { bech32 } = await import('@scure/base');
    for (let i = 0; i < 10; i++) {
      const address = bech32.encode('bc', [0, ...bech32.toWords(new Uint8Array(20).fill(i + 1))]);
      expect((await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token))).status).toBe(
        201,
      );
    }
    const buyer = await signedInUser(t, 'ann', 'buyer');
    const seller = await verifiedUser(t, 'sam', 'seller');
    await verifyEmail('ann');
    const ids = await sellerCreated(40, seller, buyer);
    const results = await Promise.all(
      ids.map((id) => t.app.request(`/api/escrows/${id}/request-payment`, bearer(buyer.token, 'POST'))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    const assigned = await t.database.db
      .selectFrom('escrows')
      .select('assigned_address_id')
      .where('assigned_address_id', 'is not', null)
      .execute();
    expect(new Set(assigned.map((a) => a.assigned_address_id)).size).toBe(10);
    const addresses = await t.database.db.selectFrom('addresses').select(['status', 'assigned_to_escrow_id']).execute();
    expect(addresses.every((a) => a.status === 'assigned')).toBe(true);
    expect(new Set(addresses.map((a) => a.assigned_to_escrow_id)).size).toBe(10);
    // 80 escrow commands and 10 pool additions: over the default 30 s on a loaded two-core machine.
  }, 120_000);
});
