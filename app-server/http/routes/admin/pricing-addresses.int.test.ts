import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escrowAggregate } from '../../../../domain/aggregates.ts';
import { assignPaymentAddress } from '../../../escrows/commands.ts';
import { handle } from '../../../commands/handle.ts';
import { bearer, form, signedInAdmin, signedInUser } from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const body = async <T = { detail: string }>(res: Response) => (await res.json()) as T;
const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const P2PKH = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';

describe('BTC rate', () => {
  it('answers 503 with a detail until an admin sets a rate', async () => {
    const res = await t.app.request('/api/btc-rate');
    expect(res.status).toBe(503);
    expect((await body(res)).detail).toContain('has not been set yet');
  });

  it('is set by an admin with exact decimals, and read by anyone', async () => {
    const admin = await signedInAdmin(t);
    const set = await t.app.request(
      '/api/admin/btc-rate',
      form({ btc_usd_rate: '65432.10', fee_percentage: '1.75' }, admin.token, 'PUT'),
    );
    expect(set.status).toBe(200);
    const read = await body<{ btc_usd_rate: number; fee_percentage: number; rate_set_at: string }>(
      await t.app.request('/api/btc-rate'),
    );
    expect(read).toMatchObject({ btc_usd_rate: 65432.1, fee_percentage: 1.75 });
    expect(Date.parse(read.rate_set_at)).not.toBeNaN();
    const defaultFee = await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '70000' }, admin.token, 'PUT'));
    expect(await body(defaultFee)).toMatchObject({ btc_usd_rate: 70000, fee_percentage: 1.75 });
  });

  it.each([
    [{ btc_usd_rate: '0' }, 'btc_usd_rate must be more than 0'],
    [{ btc_usd_rate: '-5' }, 'btc_usd_rate must be positive'],
    [{ btc_usd_rate: '1.234' }, 'btc_usd_rate has more than 2 decimal places'],
    [{ btc_usd_rate: 'lots' }, 'btc_usd_rate must be a decimal number like 12.34'],
    [{ btc_usd_rate: '50000', fee_percentage: '101' }, 'fee_percentage must be between 0 and 100'],
    [{}, 'btc_usd_rate is required'],
  ])('refuses %o: %s', async (fields, detail) => {
    const admin = await signedInAdmin(t);
    const res = await t.app.request('/api/admin/btc-rate', form(fields as Record<string, string>, admin.token, 'PUT'));
    expect([res.status, (await body(res)).detail]).toEqual([422, detail]);
  });

  it('is set by admins only', async () => {
    const buyer = await signedInUser(t, 'ann');
    expect((await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '1' }, undefined, 'PUT'))).status).toBe(
      401,
    );
    expect((await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '1' }, buyer.token, 'PUT'))).status).toBe(
      403,
    );
  });
});

describe('address pool', () => {
  it('adds checked addresses, normalised, and lists them', async () => {
    const admin = await signedInAdmin(t);
    const added = await t.app.request(
      '/api/admin/addresses',
      form({ address_string: P2WPKH.toUpperCase() }, admin.token),
    );
    expect(added.status).toBe(201);
    expect(await body(added)).toMatchObject({
      address_string: P2WPKH,
      status: 'available',
      network: 'mainnet',
      assigned_to_escrow_id: null,
    });
    await t.app.request('/api/admin/addresses', form({ address_string: P2PKH }, admin.token));
    const list = await body<{ address_string: string }[]>(
      await t.app.request('/api/admin/addresses', bearer(admin.token)),
    );
    expect(list.map((a) => a.address_string)).toEqual([P2WPKH, P2PKH]);
  });

  it.each([
    [
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      'address_string is a testnet or signet address, but this service runs on mainnet',
    ],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'address_string has a bad checksum or characters'],
    ['not an address', 'address_string is not a valid Bitcoin address (bad characters or checksum)'],
    // BIP-350's invalid vector with excess padding in the program: its checksum is right, its 5-bit words do not
    // make whole bytes. It was a 500 (the decoder threw) before.
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf',
      'address_string has a witness program that is not whole bytes',
    ],
  ])('refuses %s', async (address, detail) => {
    const admin = await signedInAdmin(t);
    const res = await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token));
    expect([res.status, (await body(res)).detail]).toEqual([422, detail]);
  });

  it('refuses a duplicate, whatever its case', async () => {
    const admin = await signedInAdmin(t);
    await t.app.request('/api/admin/addresses', form({ address_string: P2WPKH }, admin.token));
    const again = await t.app.request(
      '/api/admin/addresses',
      form({ address_string: P2WPKH.toUpperCase() }, admin.token),
    );
    expect([again.status, (await body(again)).detail]).toEqual([409, 'This address is already in the pool']);
  });

  it('edits and deletes an available address, never an assigned one', async () => {
    const admin = await signedInAdmin(t);
    const { id } = await body<{ id: string }>(
      await t.app.request('/api/admin/addresses', form({ address_string: P2WPKH }, admin.token)),
    );
    const edited = await t.app.request(
      `/api/admin/addresses/${id}`,
      form({ address_string: P2PKH }, admin.token, 'PUT'),
    );
    expect(await body(edited)).toMatchObject({ address_string: P2PKH });

    const escrowId = randomUUID();
    const deps = { db: t.database.db, store: t.deps.store };
    await handle(
      deps.store,
      escrowAggregate,
      escrowId,
      {
        type: 'create',
        by: 'buyer',
        escrow_id: escrowId,
        created_by: admin.id,
        creator_side: 'buyer',
        creator_email: 'b@example.com',
        counterparty_email: 's@example.com',
        product_service: 'Chair',
        description: 'A chair',
        amount_cents: 1_000,
        deadline_days: 7,
        pricing: { rate_cents: 5_000_000, fee_bps: 150 },
      },
      { actor: admin.id, requestId: 't' },
    );
    await assignPaymentAddress(
      deps.store,
      { escrowId, addressId: id, address: P2PKH, by: 'buyer' },
      { actor: admin.id, requestId: 't' },
    );

    const editAssigned = await t.app.request(
      `/api/admin/addresses/${id}`,
      form({ address_string: P2WPKH }, admin.token, 'PUT'),
    );
    expect([editAssigned.status, (await body(editAssigned)).detail]).toEqual([
      409,
      'Address is assigned to an escrow and cannot be edited',
    ]);
    const deleteAssigned = await t.app.request(`/api/admin/addresses/${id}`, bearer(admin.token, 'DELETE'));
    expect(deleteAssigned.status).toBe(409);

    const { id: spare } = await body<{ id: string }>(
      await t.app.request('/api/admin/addresses', form({ address_string: P2WPKH }, admin.token)),
    );
    expect((await t.app.request(`/api/admin/addresses/${spare}`, bearer(admin.token, 'DELETE'))).status).toBe(200);
    expect((await t.app.request(`/api/admin/addresses/${spare}`, bearer(admin.token, 'DELETE'))).status).toBe(404);
  });

  it('is for admins only', async () => {
    const seller = await signedInUser(t, 'sam', 'seller');
    expect((await t.app.request('/api/admin/addresses')).status).toBe(401);
    expect((await t.app.request('/api/admin/addresses', bearer(seller.token))).status).toBe(403);
    expect((await t.app.request('/api/admin/addresses', form({ address_string: P2WPKH }, seller.token))).status).toBe(
      403,
    );
  });
});
