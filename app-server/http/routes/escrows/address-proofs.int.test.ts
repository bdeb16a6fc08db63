import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testSigner } from '../../../../domain/bitcoin/bip322-fixtures.ts';
import { bearer, json } from '../../../testing/accounts.ts';
import { freshAddress } from '../../../testing/bitcoin.ts';
import { openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

/** Payout and refund addresses proven by BIP-322 signatures (contract.md section 9). */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = {
  id: string;
  payout_address: string | null;
  payout_address_proven: boolean;
  refund_address: string | null;
  refund_address_proven: boolean;
};
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

async function deal(app: TestApp) {
  const market = await openMarket(app, [freshAddress()]);
  const res = await app.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      market.buyer.token,
    ),
  );
  return { ...market, escrow: (await res.json()) as Escrow };
}
async function messageFor(app: TestApp, id: string, token: string, address: string) {
  const res = await app.app.request(
    `/api/escrows/${id}/address-message?address=${encodeURIComponent(address)}`,
    bearer(token),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { message: string; side: string; address: string };
}
const setAddress = (app: TestApp, id: string, token: string, body: Record<string, string>) =>
  app.app.request(`/api/escrows/${id}/payout-address`, json(body, token));

describe('address proofs (BIP-322)', () => {
  it('gives the exact message, takes a signature by the address, and marks it proven for both parties and the admins', async () => {
    const { admin, buyer, seller, escrow } = await deal(t);
    const wallet = testSigner('p2wpkh', 'mainnet');
    const asked = await messageFor(t, escrow.id, seller.token, wallet.address);
    expect(asked).toEqual({
      side: 'seller',
      address: wallet.address,
      message: `http://127.0.0.1:3000 escrow ${escrow.id}: I control ${wallet.address} and want it as the seller's payout address.`,
    });
    const res = await setAddress(t, escrow.id, seller.token, {
      address: wallet.address,
      signature: wallet.sign(asked.message),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      payout_address: wallet.address,
      payout_address_proven: true,
      refund_address_proven: false,
    });
    for (const who of [buyer, admin]) {
      const view = (await (await t.app.request(`/api/escrows/${escrow.id}`, bearer(who.token))).json()) as Escrow;
      expect(view).toMatchObject({ payout_address: wallet.address, payout_address_proven: true });
    }
    const [event] = await t.database.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'PayoutAddressSet')
      .execute();
    expect(event!.data).toMatchObject({ side: 'seller', address: wallet.address, signature: expect.any(String) });
  });

  it("takes the buyer's P2TR refund address; the same address given again with its proof becomes proven", async () => {
    const { buyer, escrow } = await deal(t);
    const wallet = testSigner('p2tr', 'mainnet', 'buyer');
    expect((await setAddress(t, escrow.id, buyer.token, { address: wallet.address })).status).toBe(200);
    const { message, side } = await messageFor(t, escrow.id, buyer.token, wallet.address);
    expect(side).toBe('buyer');
    expect(message).toContain("buyer's refund address");
    const res = await setAddress(t, escrow.id, buyer.token, {
      address: wallet.address,
      signature: wallet.sign(message),
    });
    expect(await res.json()).toMatchObject({ refund_address: wallet.address, refund_address_proven: true });
  });

  it('refuses a wrong message, a wrong address and a malformed signature with 422, recording nothing', async () => {
    const { seller, escrow } = await deal(t);
    const wallet = testSigner('p2wpkh', 'mainnet');
    const other = testSigner('p2wpkh', 'mainnet', 'thief');
    const { message } = await messageFor(t, escrow.id, seller.token, wallet.address);
    const cases: Array<[string, Record<string, string>, string]> = [
      [
        'wrong message',
        { address: wallet.address, signature: wallet.sign(`${message} `) },
        'signature does not sign this message for this address',
      ],
      [
        "another escrow's message",
        {
          address: wallet.address,
          signature: wallet.sign(message.replace(escrow.id, '00000000-0000-4000-8000-000000000000')),
        },
        'does not sign',
      ],
      ['wrong address', { address: other.address, signature: wallet.sign(message) }, 'signature'],
      ['malformed', { address: wallet.address, signature: 'not base64!' }, 'signature is not base64'],
      ['not a witness', { address: wallet.address, signature: 'AAAA' }, 'signature'],
    ];
    for (const [name, body, want] of cases) {
      const res = await setAddress(t, escrow.id, seller.token, body);
      expect(res.status, name).toBe(422);
      expect(await detail(res), name).toContain(want);
    }
    expect(
      await t.database.db.selectFrom('events').select('data').where('type', '=', 'PayoutAddressSet').execute(),
    ).toHaveLength(0);
  });

  it('answers the message only to the parties, for an address of the network', async () => {
    const { admin, seller, escrow } = await deal(t);
    expect(
      (await t.app.request(`/api/escrows/${escrow.id}/address-message?address=${freshAddress()}`, bearer(admin.token)))
        .status,
    ).toBe(403);
    const bad = await t.app.request(
      `/api/escrows/${escrow.id}/address-message?address=tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx`,
      bearer(seller.token),
    );
    expect(bad.status).toBe(422);
    expect(await detail(bad)).toContain('address');
  });
});

describe('PAYOUT_PROOF_REQUIRED=true', () => {
  it('refuses an address without its signature', async () => {
    const strict = await openTestApp({ PAYOUT_PROOF_REQUIRED: 'true' });
    try {
      const { seller, escrow } = await deal(strict);
      const wallet = testSigner('p2wpkh', 'mainnet');
      const refused = await setAddress(strict, escrow.id, seller.token, { address: wallet.address });
      expect(refused.status).toBe(422);
      expect(await detail(refused)).toContain('signature is required');
      const { message } = await messageFor(strict, escrow.id, seller.token, wallet.address);
      expect(
        (
          await setAddress(strict, escrow.id, seller.token, {
            address: wallet.address,
            signature: wallet.sign(message),
          })
        ).status,
      ).toBe(200);
    } finally {
      await strict.close();
    }
  }, 120_000);
});
