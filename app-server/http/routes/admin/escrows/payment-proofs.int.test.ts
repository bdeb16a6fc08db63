import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  hex,
  makeHeader,
  makeTransaction,
  regtestProof,
  serializeMerkleBlock,
  testAddress,
} from '../../../../../domain/bitcoin/spv-fixtures.ts';
import { proofSha256 } from '../../../../../domain/bitcoin/spv.ts';
import { bearer, form, json } from '../../../../testing/accounts.ts';
import { openMarket } from '../../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../../testing/test-app.ts';

/**
 * Payment proofs through the HTTP API (contract.md section 9), on a chain mined in the test: headers at a target
 * of 0x2000ffff take a few hundred hashes, so mainnet's rules run with MIN_WORK_BITS lowered to that; headers at
 * regtest's 0x207fffff then have too little work.
 */
const FLOOR_BITS = 0x2000ffff;
const WEAK_BITS = 0x207fffff;

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ MIN_WORK_BITS: '0x2000ffff', MIN_CONFIRMATIONS: '3' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = {
  id: string;
  status: string;
  amount_sats: number;
  assigned_address: string;
  payment_txid: string | null;
  payment_proof: Record<string, unknown> | null;
};
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

/** An escrow waiting for payment, marked paid by its buyer, on `app`. */
async function markedEscrow(app: TestApp, network: 'mainnet' | 'regtest') {
  const address = testAddress(7, network);
  const { admin, buyer } = await openMarket(app, [address]);
  const res = await app.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      buyer.token,
    ),
  );
  const escrow = (await res.json()) as Escrow;
  expect(escrow.assigned_address).toBe(address);
  expect(
    (await app.app.request(`/api/escrows/${escrow.id}/mark-paid`, form({ notes: 'sent' }, buyer.token))).status,
  ).toBe(200);
  return { admin, escrow, address };
}

const proofFor = (
  address: string,
  sats: number,
  opts: { following?: number; bits?: number; network?: 'mainnet' | 'regtest' } = {},
) =>
  regtestProof(
    makeTransaction(
      [
        { address, sats },
        { address: testAddress(8, opts.network ?? 'mainnet'), sats: 1234 },
      ],
      opts.network ?? 'mainnet',
    ),
    {
      following: opts.following ?? 2,
      bits: opts.bits ?? FLOOR_BITS,
    },
  );
const fields = (p: { tx_hex: string; txout_proof: string; headers: string }) => ({
  tx_hex: p.tx_hex,
  txout_proof: p.txout_proof,
  headers: p.headers,
});
const eventsOf = (type: string) => t.database.db.selectFrom('events').select('data').where('type', '=', type).execute();

describe('POST /api/admin/escrows/{id}/verify-payment with a payment proof', () => {
  it('previews what the proof proves without recording anything, then verifies and records it', async () => {
    const { admin, escrow, address } = await markedEscrow(t, 'mainnet');
    const proof = proofFor(address, escrow.amount_sats + 500);
    const preview = await t.app.request(
      `/api/admin/escrows/${escrow.id}/payment-proof`,
      form(fields(proof), admin.token),
    );
    expect(preview.status).toBe(200);
    const proven = (await preview.json()) as Record<string, unknown>;
    expect(proven).toMatchObject({
      confirmations: 3,
      received_sats: escrow.amount_sats + 500,
      expected_sats: escrow.amount_sats,
      overpaid_sats: 500,
      short_sats: 0,
      work_judged: true,
      proof_sha256: proofSha256(proof),
    });
    expect(await eventsOf('PaymentVerified')).toHaveLength(0);

    const res = await t.app.request(
      `/api/admin/escrows/${escrow.id}/verify-payment`,
      form({ verified: 'true', notes: 'proven', ...fields(proof) }, admin.token),
    );
    expect(res.status).toBe(200);
    const funded = (await res.json()) as Escrow;
    expect(funded).toMatchObject({
      status: 'funded',
      payment_txid: proven.txid,
      payment_proof: {
        block_hash: proven.block_hash,
        confirmations: 3,
        received_sats: escrow.amount_sats + 500,
        proof_sha256: proofSha256(proof),
        work_judged: true,
      },
    });
    const [event] = await eventsOf('PaymentVerified');
    expect(event!.data).toEqual({
      notes: 'proven',
      txid: proven.txid,
      proof: {
        block_hash: proven.block_hash,
        confirmations: 3,
        received_sats: escrow.amount_sats + 500,
        proof_sha256: proofSha256(proof),
        work_judged: true,
      },
    });
    // The bytes beside the log, not in it.
    expect(JSON.stringify(event!.data)).not.toContain(proof.tx_hex);
    const rows = await t.database.db.selectFrom('payment_proofs').selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({
        proof_sha256: proofSha256(proof),
        escrow_id: escrow.id,
        tx_hex: proof.tx_hex,
        txout_proof: proof.txout_proof,
        headers: proof.headers,
      }),
    ]);
    // The buyer's view says so too.
  });

  it('refuses a short payment saying how much arrived, unless accept_partial=true', async () => {
    const { admin, escrow, address } = await markedEscrow(t, 'mainnet');
    const proof = proofFor(address, escrow.amount_sats - 1000);
    const refused = await t.app.request(
      `/api/admin/escrows/${escrow.id}/verify-payment`,
      form({ verified: 'true', notes: '', ...fields(proof) }, admin.token),
    );
    expect(refused.status).toBe(422);
    expect(await detail(refused)).toBe(
      `only ${escrow.amount_sats - 1000} of the ${escrow.amount_sats} satoshis arrived at ${address} (1000 short); set accept_partial=true to accept it`,
    );
    expect(await eventsOf('PaymentVerified')).toHaveLength(0);
    const res = await t.app.request(
      `/api/admin/escrows/${escrow.id}/verify-payment`,
      form({ verified: 'true', notes: '', accept_partial: 'true', ...fields(proof) }, admin.token),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Escrow).payment_proof).toMatchObject({ received_sats: escrow.amount_sats - 1000 });
  });

  it('refuses a tampered branch, a broken link, too little work, too few confirmations and a wrong txid, each with a detail', async () => {
    const { admin, escrow, address } = await markedEscrow(t, 'mainnet');
    const good = proofFor(address, escrow.amount_sats);
    const hashes = good.tree.hashes.map((h, i) =>
      i === 0 ? Uint8Array.from(h, (b, j) => (j === 5 ? b ^ 0x10 : b)) : h,
    );
    const stray = makeHeader({
      prev: new Uint8Array(32),
      merkleRoot: new Uint8Array(32),
      bits: FLOOR_BITS,
      mine: true,
    });
    const cases: Array<[string, Record<string, string>, string]> = [
      [
        'tampered branch',
        { ...fields(good), txout_proof: hex(serializeMerkleBlock(good.header, { ...good.tree, hashes })) },
        "does not lead to the block header's Merkle root",
      ],
      ['broken link', { ...fields(good), headers: good.headers.slice(0, 160) + hex(stray) }, 'header 2'],
      [
        'too little work',
        fields(proofFor(address, escrow.amount_sats, { bits: WEAK_BITS })),
        'too little work for mainnet',
      ],
      [
        'too few confirmations',
        fields(proofFor(address, escrow.amount_sats, { following: 1 })),
        'shows 2 confirmations; mainnet needs at least 3',
      ],
      [
        'a txid that is not the proven one',
        { ...fields(good), txid: 'ab'.repeat(32) },
        'is not the proven transaction',
      ],
      [
        'wrong address',
        fields(proofFor(testAddress(9, 'mainnet'), escrow.amount_sats)),
        "pays nothing to the escrow's address",
      ],
      ['half a proof', { tx_hex: good.tx_hex }, 'tx_hex and txout_proof go together'],
      ['not hex', { ...fields(good), headers: 'xyz' }, 'headers must be hexadecimal'],
    ];
    for (const [name, body, want] of cases) {
      const res = await t.app.request(
        `/api/admin/escrows/${escrow.id}/verify-payment`,
        form({ verified: 'true', notes: '', ...body }, admin.token),
      );
      expect(res.status, name).toBe(422);
      expect(await detail(res), name).toContain(want);
    }
    expect(await eventsOf('PaymentVerified')).toHaveLength(0);
    expect(await t.database.db.selectFrom('payment_proofs').selectAll().execute()).toHaveLength(0);
  });

  it('keeps the manual verification: without a proof the escrow shows no proof', async () => {
    const { admin, escrow } = await markedEscrow(t, 'mainnet');
    const res = await t.app.request(
      `/api/admin/escrows/${escrow.id}/verify-payment`,
      form({ verified: 'true', notes: 'seen', txid: 'cd'.repeat(32) }, admin.token),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'funded', payment_txid: 'cd'.repeat(32), payment_proof: null });
  });

  it('answers the preview only for an escrow waiting for payment', async () => {
    const { admin, escrow, address } = await markedEscrow(t, 'mainnet');
    const proof = proofFor(address, escrow.amount_sats);
    await t.app.request(
      `/api/admin/escrows/${escrow.id}/verify-payment`,
      form({ verified: 'true', notes: '', ...fields(proof) }, admin.token),
    );
    const again = await t.app.request(
      `/api/admin/escrows/${escrow.id}/payment-proof`,
      form(fields(proof), admin.token),
    );
    expect(again.status).toBe(409);
    expect(await detail(again)).toContain('an escrow that is funded');
    const buyerView = await t.app.request(`/api/escrows/${escrow.id}`, bearer(admin.token));
    expect(((await buyerView.json()) as Escrow).payment_proof).toMatchObject({ confirmations: 3 });
  });
});

describe('on a test network', () => {
  it('does not judge the work, and says so', async () => {
    const regtest = await openTestApp({ BITCOIN_NETWORK: 'regtest' });
    try {
      const { admin, escrow, address } = await markedEscrow(regtest, 'regtest');
      const proof = proofFor(address, escrow.amount_sats, { bits: WEAK_BITS, following: 0, network: 'regtest' });
      const res = await regtest.app.request(
        `/api/admin/escrows/${escrow.id}/verify-payment`,
        form({ verified: 'true', notes: '', ...fields(proof) }, admin.token),
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as Escrow).payment_proof).toMatchObject({ confirmations: 1, work_judged: false });
    } finally {
      await regtest.close();
    }
  }, 120_000);
});
