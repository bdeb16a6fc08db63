import { readFileSync } from 'node:fs';
import { Address, NETWORK, OutScript } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import {
  buildPartialTree,
  headerHash,
  hex,
  makeHeader,
  makeTransaction,
  merkleRoot,
  REGTEST_BITS,
  regtestProof,
  serializeMerkleBlock,
  splitBlock,
  testAddress,
  unhex,
} from './spv-fixtures.ts';
import {
  checkPaymentProof,
  extractMatches,
  parseHeader,
  parseTransaction,
  ProofError,
  proofSha256,
  targetOfBits,
} from './spv.ts';

const DEFAULT_MIN_WORK_BITS = 0x17034219;

/** Runs the check and answers the refusal's field and detail. */
function refusal(run: () => unknown): { field: string; detail: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ProofError) return { field: error.field, detail: error.message };
    throw error;
  }
  throw new Error('the proof was accepted');
}

describe('targetOfBits', () => {
  it('decodes compact targets as Core does', () => {
    expect(targetOfBits(0x1d00ffff)).toBe(0xffffn << 208n);
    expect(targetOfBits(0x207fffff)).toBe(0x7fffffn << 232n);
    expect(targetOfBits(0x17034219)).toBe(0x034219n << 160n);
    expect(targetOfBits(0x03123456)).toBe(0x123456n);
    expect(targetOfBits(0x02123456)).toBe(0x1234n);
  });
  it('refuses negative, zero and overflowing targets', () => {
    expect(targetOfBits(0x1d80ffff)).toBeNull();
    expect(targetOfBits(0x1d000000)).toBeNull();
    expect(targetOfBits(0x217fffff)).toBeNull();
  });
});

describe('mainnet block 413,567 (Bitcoin Core test data)', () => {
  const block = splitBlock(readFileSync(new URL('./testdata/block413567.raw', import.meta.url)));
  const header = parseHeader(block.header);
  const txs = block.transactions.map(parseTransaction);
  const txids = txs.map((t) => t.hash);
  const era = { network: 'mainnet' as const, minWorkBits: header.bits, minConfirmations: 1 };

  /** The proof of transaction i, and an expectation from its first output's address. */
  function proofOf(i: number) {
    const tree = buildPartialTree(txids, (p) => p === i);
    const out = txs[i]!.outputs[0]!;
    const address = Address(NETWORK).encode(OutScript.decode(out.script));
    return {
      input: {
        tx_hex: hex(block.transactions[i]!),
        txout_proof: hex(serializeMerkleBlock(block.header, tree)),
        headers: '',
      },
      address,
      sats: Number(out.sats),
      tree,
    };
  }

  it('is the real block: its work meets its target and its transactions make its Merkle root', () => {
    expect(block.transactions).toHaveLength(1_557);
    expect(header.hash).toMatch(/^0{16}/);
    expect(header.work <= targetOfBits(header.bits)!).toBe(true);
    expect(hex(merkleRoot(txids))).toBe(hex(header.merkleRoot));
  });

  it('proves a transaction in it with MIN_WORK_BITS lowered for that era', () => {
    for (const i of [1, 778, 1_556]) {
      const { input, address, sats } = proofOf(i);
      const proven = checkPaymentProof(input, { address, amountSats: sats, acceptPartial: false }, era);
      expect(proven).toMatchObject({
        txid: txs[i]!.txid,
        block_hash: header.hash,
        confirmations: 1,
        work_judged: true,
        overpaid_sats: 0,
        short_sats: 0,
      });
      expect(proven.received_sats).toBeGreaterThanOrEqual(sats);
      expect(proven.proof_sha256).toBe(proofSha256(input));
    }
  });

  it('refuses it under the default MIN_WORK_BITS (block 840,000) and without enough confirmations', () => {
    const { input, address, sats } = proofOf(1);
    const expectation = { address, amountSats: sats, acceptPartial: false };
    expect(
      refusal(() => checkPaymentProof(input, expectation, { ...era, minWorkBits: DEFAULT_MIN_WORK_BITS })),
    ).toEqual({
      field: 'txout_proof',
      detail: expect.stringContaining('too little work for mainnet'),
    });
    expect(refusal(() => checkPaymentProof(input, expectation, { ...era, minConfirmations: 3 }))).toEqual({
      field: 'headers',
      detail: expect.stringContaining('shows 1 confirmation; mainnet needs at least 3'),
    });
  });

  it('refuses a tampered branch, a tree for another transaction, and a damaged header', () => {
    const { input, address, sats, tree } = proofOf(917);
    const expectation = { address, amountSats: sats, acceptPartial: false };
    const hashes = tree.hashes.map((h, i) => (i === 2 ? Uint8Array.from(h, (b, j) => (j === 0 ? b ^ 1 : b)) : h));
    const tampered = { ...input, txout_proof: hex(serializeMerkleBlock(block.header, { ...tree, hashes })) };
    expect(refusal(() => checkPaymentProof(tampered, expectation, era)).detail).toContain(
      "does not lead to the block header's Merkle root",
    );

    const other = { ...input, txout_proof: proofOf(918).input.txout_proof };
    expect(refusal(() => checkPaymentProof(other, expectation, era)).detail).toContain(
      `does not prove transaction ${txs[917]!.txid}`,
    );

    const badHeader = Uint8Array.from(block.header);
    badHeader[76]! ^= 1; // the nonce: the hash no longer meets the target
    const damaged = { ...input, txout_proof: hex(serializeMerkleBlock(badHeader, tree)) };
    expect(refusal(() => checkPaymentProof(damaged, expectation, era)).detail).toContain(
      'does not meet its own target',
    );
  });
});

describe('extractMatches refuses malformed trees', () => {
  const txids = Array.from({ length: 5 }, (_, i) => unhex(`${i}`.padStart(64, '0')));
  const tree = buildPartialTree(txids, (i) => i === 3);

  it('walks a good tree to the root, matching the transaction', () => {
    const { root, matches } = extractMatches(tree);
    expect(hex(root)).toBe(hex(merkleRoot(txids)));
    expect(matches.map(hex)).toEqual([hex(txids[3]!)]);
  });
  it.each([
    ['no transactions', { ...tree, transactions: 0 }, 'without transactions'],
    ['more hashes than transactions', { ...tree, transactions: 2 }, 'more hashes than'],
    ['a hash missing', { ...tree, hashes: tree.hashes.slice(0, -1) }, 'runs out of hashes'],
    ['a hash too many', { ...tree, hashes: [...tree.hashes, txids[0]!] }, 'hashes left over'],
    ['a flag byte too many', { ...tree, flags: Uint8Array.of(...tree.flags, 0) }, 'flag bytes left over'],
    ['no flag bits', { ...tree, flags: new Uint8Array() }, 'fewer flag bits than hashes'],
  ])('%s', (_name, bad, detail) => {
    expect(refusal(() => extractMatches(bad)).detail).toContain(detail);
  });
  it('two identical children (CVE-2012-2459)', () => {
    const dup = [...txids.slice(0, 4), txids[3]!, txids[3]!];
    expect(refusal(() => extractMatches(buildPartialTree(dup, (i) => i === 4))).detail).toContain(
      'two identical children',
    );
  });
});

describe('a regtest chain made here', () => {
  const address = testAddress(1, 'regtest');
  const other = testAddress(2, 'regtest');
  const regtest = { network: 'regtest' as const, minWorkBits: DEFAULT_MIN_WORK_BITS, minConfirmations: 3 };
  const expectation = { address, amountSats: 50_000, acceptPartial: false };
  const payment = makeTransaction(
    [
      { address, sats: 50_000 },
      { address: other, sats: 7 },
    ],
    'regtest',
  );

  it('proves the payment; on a test network the work is not judged', () => {
    const proof = regtestProof(payment, { following: 0 });
    expect(checkPaymentProof(proof, expectation, regtest)).toMatchObject({
      confirmations: 1,
      received_sats: 50_000,
      work_judged: false,
    });
  });

  it('on mainnet rules, judges the work and the confirmations', () => {
    const mainnetAddress = testAddress(1, 'mainnet');
    const tx = makeTransaction([{ address: mainnetAddress, sats: 50_000 }], 'mainnet');
    const proof = regtestProof(tx, { following: 2 });
    const mainnet = { network: 'mainnet' as const, minWorkBits: REGTEST_BITS, minConfirmations: 3 };
    expect(checkPaymentProof(proof, { ...expectation, address: mainnetAddress }, mainnet)).toMatchObject({
      confirmations: 3,
      work_judged: true,
    });
    expect(
      refusal(() =>
        checkPaymentProof(
          proof,
          { ...expectation, address: mainnetAddress },
          { ...mainnet, minWorkBits: DEFAULT_MIN_WORK_BITS },
        ),
      ),
    ).toMatchObject({
      field: 'txout_proof',
      detail: expect.stringContaining('too little work'),
    });
    const short = regtestProof(tx, { following: 1 });
    expect(
      refusal(() => checkPaymentProof(short, { ...expectation, address: mainnetAddress }, mainnet)).detail,
    ).toContain('shows 2 confirmations; mainnet needs at least 3');
  });

  it('records over-payment, refuses under-payment saying how much arrived unless partial is accepted', () => {
    const proof = regtestProof(payment);
    expect(checkPaymentProof(proof, { ...expectation, amountSats: 40_000 }, regtest)).toMatchObject({
      received_sats: 50_000,
      overpaid_sats: 10_000,
    });
    expect(refusal(() => checkPaymentProof(proof, { ...expectation, amountSats: 60_000 }, regtest))).toEqual({
      field: 'amount',
      detail: `only 50000 of the 60000 satoshis arrived at ${address} (10000 short); set accept_partial=true to accept it`,
    });
    expect(
      checkPaymentProof(proof, { ...expectation, amountSats: 60_000, acceptPartial: true }, regtest),
    ).toMatchObject({ short_sats: 10_000 });
    const elsewhere = makeTransaction([{ address: other, sats: 50_000 }], 'regtest');
    expect(refusal(() => checkPaymentProof(regtestProof(elsewhere), expectation, regtest)).detail).toContain(
      "pays nothing to the escrow's address",
    );
  });

  it('refuses a broken link and a header whose work misses its own target', () => {
    const proof = regtestProof(payment, { following: 2 });
    const stray = makeHeader({
      prev: new Uint8Array(32),
      merkleRoot: new Uint8Array(32),
      bits: REGTEST_BITS,
      mine: true,
    });
    const broken = { ...proof, headers: proof.headers.slice(0, 160) + hex(stray) };
    expect(refusal(() => checkPaymentProof(broken, expectation, regtest))).toMatchObject({
      field: 'headers',
      detail: expect.stringContaining('header 2'),
    });
    // A header that claims the hardest target its hash cannot meet.
    let unmined = makeHeader({ prev: headerHash(proof.header), merkleRoot: new Uint8Array(32), bits: 0x1d00ffff });
    for (let n = 0; headerHash(unmined)[31] === 0; n++)
      unmined = makeHeader({
        prev: headerHash(proof.header),
        merkleRoot: new Uint8Array(32),
        bits: 0x1d00ffff,
        nonce: n,
      });
    expect(
      refusal(() => checkPaymentProof({ ...proof, headers: hex(unmined) }, expectation, regtest)).detail,
    ).toContain('header 1');
  });

  it('names the field of malformed hex', () => {
    const proof = regtestProof(payment);
    expect(refusal(() => checkPaymentProof({ ...proof, tx_hex: 'zz' }, expectation, regtest))).toMatchObject({
      field: 'tx_hex',
    });
    expect(refusal(() => checkPaymentProof({ ...proof, tx_hex: '0100' }, expectation, regtest))).toMatchObject({
      field: 'tx_hex',
    });
    expect(
      refusal(() =>
        checkPaymentProof({ ...proof, txout_proof: proof.txout_proof.slice(0, 100) }, expectation, regtest),
      ),
    ).toMatchObject({ field: 'txout_proof' });
    expect(
      refusal(() => checkPaymentProof({ ...proof, txout_proof: `${proof.txout_proof}00` }, expectation, regtest))
        .detail,
    ).toContain('bytes after');
    expect(refusal(() => checkPaymentProof({ ...proof, headers: 'abcd' }, expectation, regtest))).toMatchObject({
      field: 'headers',
    });
  });
});
