import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha2.js';
import { Address, NETWORK, OutScript, RawTx } from '@scure/btc-signer';
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
  txHash,
  unhex,
} from './spv-fixtures.ts';
import {
  checkPaymentProof,
  extractMatches,
  normaliseProof,
  parseHeader,
  parseMerkleBlock,
  parseTransaction,
  ProofError,
  proofSha256,
  scriptOfAddress,
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

const u32le = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0, true);
  return b;
};
const joined = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
/** The hash as Bitcoin shows it (byte-reversed). */
const shown = (hash: Uint8Array) => hex(Uint8Array.from(hash).reverse());
const bytesOf = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe('the proof as stored', () => {
  const address = testAddress(1, 'regtest');
  const regtest = { network: 'regtest' as const, minWorkBits: DEFAULT_MIN_WORK_BITS, minConfirmations: 1 };
  const expectation = { address, amountSats: 50_000, acceptPartial: false };
  const proof = regtestProof(makeTransaction([{ address, sats: 50_000 }], 'regtest'), { following: 2 });
  const input = { tx_hex: proof.tx_hex, txout_proof: proof.txout_proof, headers: proof.headers };

  it('is normalised: trimmed, in lower case, headers without whitespace', () => {
    expect(normaliseProof({ tx_hex: ' AB01 \n', txout_proof: '\tCD ', headers: ' EF 01\n23\t45 ' })).toEqual({
      tx_hex: 'ab01',
      txout_proof: 'cd',
      headers: 'ef012345',
    });
  });

  it('hashes the normalised fields joined by line feeds, as an auditor recomputes it', () => {
    const expected = createHash('sha256').update('ab01\ncd\nef012345').digest('hex');
    expect(proofSha256({ tx_hex: 'AB01 ', txout_proof: ' cd', headers: 'EF01 2345' })).toBe(expected);
  });

  it('accepts a proof pasted in capitals with the headers on separate lines, and says what it proves', () => {
    const pasted = {
      tx_hex: ` ${input.tx_hex.toUpperCase()}\n`,
      txout_proof: input.txout_proof.toUpperCase(),
      headers: `${input.headers.slice(0, 160)}\n  ${input.headers.slice(160).toUpperCase()}\n`,
    };
    expect(checkPaymentProof(pasted, expectation, regtest)).toEqual({
      txid: shown(txHash(unhex(input.tx_hex))),
      block_hash: shown(headerHash(proof.header)),
      confirmations: 3,
      received_sats: 50_000,
      expected_sats: 50_000,
      overpaid_sats: 0,
      short_sats: 0,
      work_judged: false,
      proof_sha256: createHash('sha256')
        .update(`${input.tx_hex}\n${input.txout_proof}\n${input.headers}`)
        .digest('hex'),
    });
  });

  it('names an empty or non-hexadecimal field, saying what to give', () => {
    expect(refusal(() => checkPaymentProof({ ...input, tx_hex: '  ' }, expectation, regtest))).toEqual({
      field: 'tx_hex',
      detail: 'tx_hex is empty: give the raw transaction, as getrawtransaction prints it as hexadecimal',
    });
    expect(refusal(() => checkPaymentProof({ ...input, tx_hex: `${input.tx_hex}0` }, expectation, regtest))).toEqual({
      field: 'tx_hex',
      detail: 'tx_hex must be hexadecimal (the raw transaction, as getrawtransaction prints it)',
    });
    expect(refusal(() => checkPaymentProof({ ...input, tx_hex: `${input.tx_hex}zz` }, expectation, regtest))).toEqual({
      field: 'tx_hex',
      detail: 'tx_hex must be hexadecimal (the raw transaction, as getrawtransaction prints it)',
    });
    expect(refusal(() => checkPaymentProof({ ...input, tx_hex: `zz${input.tx_hex}` }, expectation, regtest))).toEqual({
      field: 'tx_hex',
      detail: 'tx_hex must be hexadecimal (the raw transaction, as getrawtransaction prints it)',
    });
    expect(refusal(() => checkPaymentProof({ ...input, txout_proof: '' }, expectation, regtest))).toEqual({
      field: 'txout_proof',
      detail: 'txout_proof is empty: give as gettxoutproof prints it as hexadecimal',
    });
    expect(refusal(() => checkPaymentProof({ ...input, txout_proof: 'g0' }, expectation, regtest))).toEqual({
      field: 'txout_proof',
      detail: 'txout_proof must be hexadecimal (as gettxoutproof prints it)',
    });
  });

  it('refuses headers that are not hexadecimal or not whole headers, saying how many bytes came', () => {
    expect(refusal(() => checkPaymentProof({ ...input, headers: `${input.headers}xy` }, expectation, regtest))).toEqual(
      { field: 'headers', detail: 'headers must be hexadecimal (80-byte block headers, one after another)' },
    );
    expect(refusal(() => checkPaymentProof({ ...input, headers: `xy${input.headers}` }, expectation, regtest))).toEqual(
      { field: 'headers', detail: 'headers must be hexadecimal (80-byte block headers, one after another)' },
    );
    expect(
      refusal(() => checkPaymentProof({ ...input, headers: input.headers.slice(0, 200) }, expectation, regtest)),
    ).toEqual({
      field: 'headers',
      detail: 'headers must be whole 80-byte block headers (160 hexadecimal characters each); got 100 bytes',
    });
  });

  it('says which following header breaks the chain, and what it follows instead', () => {
    const stray = makeHeader({ prev: bytesOf(32, 7), merkleRoot: bytesOf(32, 0), bits: REGTEST_BITS, mine: true });
    const broken = { ...input, headers: input.headers.slice(0, 160) + hex(stray) };
    expect(refusal(() => checkPaymentProof(broken, expectation, regtest))).toEqual({
      field: 'headers',
      detail: `header 2 (${shown(headerHash(stray))}) does not link to the one before it: it follows ${'07'.repeat(32)}, not ${parseHeader(unhex(input.headers.slice(0, 160))).hash}`,
    });
  });
});

describe('block headers and their work', () => {
  it('reads a header: its hash, the previous one, the Merkle root and the bits', () => {
    const prev = Uint8Array.from({ length: 32 }, (_, i) => i);
    const root = Uint8Array.from({ length: 32 }, (_, i) => 100 + i);
    const bytes = makeHeader({ prev, merkleRoot: root, bits: 0x1d00ffff, nonce: 42 });
    const header = parseHeader(bytes);
    expect(header.hash).toBe(shown(headerHash(bytes)));
    expect(header.prev).toBe(shown(prev));
    expect(hex(header.merkleRoot)).toBe(hex(root));
    expect(header.bits).toBe(0x1d00ffff);
    expect(header.work).toBe(BigInt(`0x${shown(headerHash(bytes))}`));
    // A header inside a longer buffer is read at its own offset.
    const inside = joined(bytesOf(3, 9), bytes).subarray(3);
    expect(parseHeader(inside)).toEqual(header);
  });

  it('refuses anything but 80 bytes', () => {
    expect(() => parseHeader(new Uint8Array(79))).toThrow('a block header is 80 bytes');
    expect(() => parseHeader(new Uint8Array(81))).toThrow('a block header is 80 bytes');
  });

  it('decodes small exponents and the edge of 256 bits', () => {
    expect(targetOfBits(0x01123456)).toBe(0x12n);
    expect(targetOfBits(0x00123456)).toBeNull();
    expect(targetOfBits(0x22000001)).toBe(1n << 248n);
    expect(targetOfBits(0x23000001)).toBeNull();
    expect(targetOfBits(0x1d7fffff)).toBe(0x7fffffn << 208n);
  });

  const regtest = { network: 'regtest' as const, minWorkBits: 0x1d80ffff, minConfirmations: 9 };
  const address = testAddress(3, 'regtest');
  const expectation = { address, amountSats: 1_000, acceptPartial: false };
  const tx = makeTransaction([{ address, sats: 1_000 }], 'regtest', 3);
  const txids = [sha256(Uint8Array.of(0xc0)), txHash(tx)];
  const tree = buildPartialTree(txids, (i) => i === 1);
  const inputWith = (header: Uint8Array, headers: Uint8Array[] = []) => ({
    tx_hex: hex(tx),
    txout_proof: hex(serializeMerkleBlock(header, tree)),
    headers: headers.map(hex).join(''),
  });

  it('does not judge MIN_WORK_BITS nor confirmations off mainnet', () => {
    const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: REGTEST_BITS, mine: true });
    expect(checkPaymentProof(inputWith(header), expectation, regtest).work_judged).toBe(false);
  });

  it('refuses a MIN_WORK_BITS that encodes no target on mainnet', () => {
    const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: REGTEST_BITS, mine: true });
    expect(() =>
      checkPaymentProof(inputWith(header), expectation, { ...regtest, network: 'mainnet', minConfirmations: 1 }),
    ).toThrow('MIN_WORK_BITS 0x1d80ffff encodes no valid target');
  });

  it('refuses bits that encode no target, naming the header and its bits', () => {
    const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: 0x0080ffff });
    expect(refusal(() => checkPaymentProof(inputWith(header), expectation, regtest))).toEqual({
      field: 'txout_proof',
      detail: `txout_proof's block header (${shown(headerHash(header))}) has bits 0x0080ffff, which encode no valid target`,
    });
    const good = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: REGTEST_BITS, mine: true });
    const next = makeHeader({ prev: headerHash(good), merkleRoot: bytesOf(32, 1), bits: 0x1d000000 });
    expect(refusal(() => checkPaymentProof(inputWith(good, [next]), expectation, regtest))).toEqual({
      field: 'headers',
      detail: `header 1 (${shown(headerHash(next))}) has bits 0x1d000000, which encode no valid target`,
    });
  });

  it('refuses a header whose hash misses its own target, in words', () => {
    let header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: 0x1d00ffff });
    for (let n = 1; headerHash(header)[31] === 0; n++)
      header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: 0x1d00ffff, nonce: n });
    expect(refusal(() => checkPaymentProof(inputWith(header), expectation, regtest))).toEqual({
      field: 'txout_proof',
      detail: `txout_proof's block header (${shown(headerHash(header))}) does not meet its own target: its hash is above what bits 0x1d00ffff allow`,
    });
  });

  it('on mainnet, refuses a following header easier than MIN_WORK_BITS, naming it', () => {
    const floorBits = 0x2000ffff;
    const block = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: floorBits, mine: true });
    const easy = makeHeader({ prev: headerHash(block), merkleRoot: bytesOf(32, 2), bits: REGTEST_BITS, mine: true });
    const mainnetAddress = testAddress(3, 'mainnet');
    const mainTx = makeTransaction([{ address: mainnetAddress, sats: 1_000 }], 'mainnet', 3);
    const mainTxids = [sha256(Uint8Array.of(0xc0)), txHash(mainTx)];
    const mainBlock = makeHeader({
      prev: bytesOf(32, 0),
      merkleRoot: merkleRoot(mainTxids),
      bits: floorBits,
      mine: true,
    });
    const mainEasy = makeHeader({
      prev: headerHash(mainBlock),
      merkleRoot: bytesOf(32, 2),
      bits: REGTEST_BITS,
      mine: true,
    });
    const mainnet = { network: 'mainnet' as const, minWorkBits: floorBits, minConfirmations: 2 };
    const proof = {
      tx_hex: hex(mainTx),
      txout_proof: hex(
        serializeMerkleBlock(
          mainBlock,
          buildPartialTree(mainTxids, (i) => i === 1),
        ),
      ),
      headers: hex(mainEasy),
    };
    expect(refusal(() => checkPaymentProof(proof, { ...expectation, address: mainnetAddress }, mainnet))).toEqual({
      field: 'headers',
      detail: `header 1 (${shown(headerHash(mainEasy))}) has too little work for mainnet: its target (bits 0x207fffff) is above MIN_WORK_BITS`,
    });
    // The same chain off mainnet proves the payment.
    expect(checkPaymentProof(inputWith(block, [easy]), expectation, regtest).confirmations).toBe(2);
  });
});

describe('gettxoutproof bytes', () => {
  const txids = Array.from({ length: 5 }, (_, i) => sha256(Uint8Array.of(i)));
  const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: REGTEST_BITS });
  const tree = buildPartialTree(txids, (i) => i === 3);
  const body = (countBytes: Uint8Array, flagsCount = Uint8Array.of(tree.flags.length)) =>
    joined(header, u32le(tree.transactions), countBytes, ...tree.hashes, flagsCount, tree.flags);

  it('reads the header, the transaction count, the hashes and the flag bits', () => {
    const block = parseMerkleBlock(serializeMerkleBlock(header, tree));
    expect(block.header).toEqual(parseHeader(header));
    expect(hex(block.headerBytes)).toBe(hex(header));
    expect(block.transactions).toBe(5);
    expect(block.hashes.map(hex)).toEqual(tree.hashes.map(hex));
    expect(hex(block.flags)).toBe(hex(tree.flags));
  });

  it('reads counts written on three and five bytes', () => {
    const n = tree.hashes.length;
    expect(parseMerkleBlock(body(Uint8Array.of(0xfd, n, 0))).hashes).toHaveLength(n);
    expect(parseMerkleBlock(body(Uint8Array.of(0xfe, n, 0, 0, 0))).hashes).toHaveLength(n);
    expect(parseMerkleBlock(body(Uint8Array.of(n), Uint8Array.of(0xfd, tree.flags.length, 0))).flags).toHaveLength(
      tree.flags.length,
    );
  });

  it('reads a transaction count over 255', () => {
    const many = joined(header, u32le(0x01020304), Uint8Array.of(0), Uint8Array.of(0));
    expect(parseMerkleBlock(many).transactions).toBe(0x01020304);
  });

  it('refuses a count on nine bytes, and one larger than a block can hold', () => {
    expect(() => parseMerkleBlock(body(Uint8Array.of(0xff, 1, 0, 0, 0, 0, 0, 0, 0)))).toThrow(
      'txout_proof has a count too large for its hash count',
    );
    expect(() => parseMerkleBlock(body(Uint8Array.of(0xfd, 0x1b, 0x41)))).toThrow(
      'txout_proof lists 16667 hashes, more than a block can hold',
    );
    // 16,666 is the most a block holds: the count passes, the missing hashes are what is refused.
    expect(() => parseMerkleBlock(body(Uint8Array.of(0xfd, 0x1a, 0x41)))).toThrow('txout_proof ends before its hashes');
  });

  it('says where it ends too early', () => {
    const full = serializeMerkleBlock(header, tree);
    const cut = (n: number) => () => parseMerkleBlock(full.subarray(0, n));
    expect(cut(79)).toThrow('txout_proof ends before its block header');
    expect(cut(83)).toThrow('txout_proof ends before its transaction count');
    expect(cut(84)).toThrow('txout_proof ends before its hash count');
    expect(cut(85 + 32 * tree.hashes.length)).toThrow('txout_proof ends before its flag count');
    expect(cut(full.length - 1)).toThrow('txout_proof ends before its flag bits');
    expect(() => parseMerkleBlock(joined(full, Uint8Array.of(0, 0)))).toThrow(
      'txout_proof has 2 bytes after its partial Merkle tree',
    );
    expect(refusal(cut(50)).field).toBe('txout_proof');
  });
});

describe('the partial Merkle tree at its limits', () => {
  const distinct = (n: number) => Array.from({ length: n }, (_, i) => sha256(Uint8Array.of(0xa0, i)));

  it('takes a tree as large as a block can hold, and refuses one transaction more', () => {
    const [only] = distinct(1);
    expect(hex(extractMatches({ transactions: 16_666, hashes: [only!], flags: Uint8Array.of(0) }).root)).toBe(
      hex(only!),
    );
    expect(refusal(() => extractMatches({ transactions: 16_667, hashes: [only!], flags: Uint8Array.of(0) }))).toEqual({
      field: 'txout_proof',
      detail: "txout_proof's partial Merkle tree claims 16667 transactions, more than a block can hold",
    });
  });

  it('allows as many hashes as transactions and as many flag bits as hashes, then walks out of bits', () => {
    expect(
      refusal(() => extractMatches({ transactions: 16, hashes: distinct(8), flags: Uint8Array.of(0xff) })).detail,
    ).toBe("txout_proof's partial Merkle tree runs out of flag bits");
    expect(
      refusal(() => extractMatches({ transactions: 8, hashes: distinct(9), flags: Uint8Array.of(0xff, 0xff) })).detail,
    ).toBe("txout_proof's partial Merkle tree has more hashes than the block has transactions");
    expect(
      refusal(() => extractMatches({ transactions: 9, hashes: distinct(9), flags: Uint8Array.of(0xff) })).detail,
    ).toBe("txout_proof's partial Merkle tree has fewer flag bits than hashes");
  });

  it('proves a single-transaction block by the txid itself, and several matches in order', () => {
    const [coinbase] = distinct(1);
    expect(extractMatches({ transactions: 1, hashes: [coinbase!], flags: Uint8Array.of(1) }).matches.map(hex)).toEqual([
      hex(coinbase!),
    ]);
    const txids = distinct(7);
    const tree = buildPartialTree(txids, (i) => i === 2 || i === 6);
    const { root, matches } = extractMatches(tree);
    expect(hex(root)).toBe(hex(merkleRoot(txids)));
    expect(matches.map(hex)).toEqual([hex(txids[2]!), hex(txids[6]!)]);
  });

  it('refuses a proof that matches no transaction, saying so', () => {
    const address = testAddress(4, 'regtest');
    const tx = makeTransaction([{ address, sats: 10 }], 'regtest', 4);
    const txids = [sha256(Uint8Array.of(0xc0)), txHash(tx)];
    const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: REGTEST_BITS, mine: true });
    const none = serializeMerkleBlock(
      header,
      buildPartialTree(txids, () => false),
    );
    const rules = { network: 'regtest' as const, minWorkBits: DEFAULT_MIN_WORK_BITS, minConfirmations: 1 };
    const proof = { tx_hex: hex(tx), txout_proof: hex(none), headers: '' };
    expect(refusal(() => checkPaymentProof(proof, { address, amountSats: 10, acceptPartial: false }, rules))).toEqual({
      field: 'txout_proof',
      detail: `txout_proof does not prove transaction ${shown(txHash(tx))}: it proves no transaction`,
    });
    const other = serializeMerkleBlock(
      header,
      buildPartialTree(txids, (i) => i === 0),
    );
    expect(
      refusal(() =>
        checkPaymentProof(
          { ...proof, txout_proof: hex(other) },
          { address, amountSats: 10, acceptPartial: false },
          rules,
        ),
      ).detail,
    ).toBe(`txout_proof does not prove transaction ${shown(txHash(tx))}: it proves ${shown(txids[0]!)}`);
  });
});

describe('the transaction and the money', () => {
  const address = testAddress(5, 'regtest');
  const other = testAddress(6, 'regtest');
  const regtest = { network: 'regtest' as const, minWorkBits: DEFAULT_MIN_WORK_BITS, minConfirmations: 1 };
  const expecting = (amountSats: number, acceptPartial = false) => ({ address, amountSats, acceptPartial });

  it('reads the txid without the witness, and each output', () => {
    const plain = makeTransaction(
      [
        { address, sats: 1_000 },
        { address: other, sats: 2 },
      ],
      'regtest',
    );
    const decoded = RawTx.decode(plain);
    const withWitness = RawTx.encode({ ...decoded, segwitFlag: true, witnesses: [[Uint8Array.of(1, 2, 3)]] });
    expect(withWitness.length).toBeGreaterThan(plain.length);
    const parsed = parseTransaction(withWitness);
    expect(parsed.txid).toBe(shown(txHash(plain)));
    expect(hex(parsed.hash)).toBe(hex(txHash(plain)));
    expect(parsed.outputs.map((o) => [hex(o.script), o.sats])).toEqual([
      [hex(scriptOfAddress(address, 'regtest')), 1_000n],
      [hex(scriptOfAddress(other, 'regtest')), 2n],
    ]);
  });

  it('refuses bytes that are no transaction, and a 64-byte one', () => {
    expect(refusal(() => parseTransaction(Uint8Array.of(1, 0)))).toEqual({
      field: 'tx_hex',
      detail: expect.stringMatching(/^tx_hex is not a Bitcoin transaction \(.+\)$/),
    });
    const sixtyFour = RawTx.encode({
      version: 2,
      segwitFlag: false,
      inputs: [{ txid: bytesOf(32, 1), index: 0, finalScriptSig: new Uint8Array(), sequence: 0xffffffff }],
      outputs: [{ amount: 1n, script: Uint8Array.of(0x6a, 2, 0, 0) }],
      witnesses: undefined,
      lockTime: 0,
    });
    expect(sixtyFour).toHaveLength(64);
    expect(refusal(() => parseTransaction(sixtyFour))).toEqual({
      field: 'tx_hex',
      detail: 'tx_hex is 64 bytes without its witness, which a Merkle proof cannot tell from an inner node',
    });
  });

  it('adds up every output to the escrow, and nothing else', () => {
    const tx = makeTransaction(
      [
        { address, sats: 30_000 },
        { address: other, sats: 99_999 },
        { address, sats: 20_000 },
      ],
      'regtest',
    );
    expect(checkPaymentProof(regtestProof(tx), expecting(50_000), regtest)).toMatchObject({
      received_sats: 50_000,
      expected_sats: 50_000,
      overpaid_sats: 0,
      short_sats: 0,
    });
    expect(checkPaymentProof(regtestProof(tx), expecting(60_000, true), regtest)).toMatchObject({
      received_sats: 50_000,
      expected_sats: 60_000,
      overpaid_sats: 0,
      short_sats: 10_000,
    });
  });

  it('names the transaction that pays the escrow nothing', () => {
    const tx = makeTransaction([{ address: other, sats: 5 }], 'regtest');
    expect(refusal(() => checkPaymentProof(regtestProof(tx), expecting(5), regtest))).toEqual({
      field: 'tx_hex',
      detail: `transaction ${shown(txHash(tx))} pays nothing to the escrow's address ${address}`,
    });
  });

  it('refuses an escrow address of another network', () => {
    const tx = makeTransaction([{ address, sats: 5 }], 'regtest');
    const mainnetAddress = testAddress(5, 'mainnet');
    expect(
      refusal(() =>
        checkPaymentProof(regtestProof(tx), { address: mainnetAddress, amountSats: 5, acceptPartial: false }, regtest),
      ),
    ).toEqual({ field: 'amount', detail: `the escrow's address ${mainnetAddress} is not a regtest address` });
  });

  it('takes up to the largest safe number of satoshis, and refuses more', () => {
    const most = makeTransaction([{ address, sats: Number.MAX_SAFE_INTEGER }], 'regtest');
    expect(checkPaymentProof(regtestProof(most), expecting(1), regtest)).toMatchObject({
      received_sats: Number.MAX_SAFE_INTEGER,
      overpaid_sats: Number.MAX_SAFE_INTEGER - 1,
    });
    const tooMany = RawTx.encode({
      ...RawTx.decode(most),
      outputs: [{ amount: BigInt(Number.MAX_SAFE_INTEGER) + 1n, script: scriptOfAddress(address, 'regtest') }],
    });
    expect(refusal(() => checkPaymentProof(regtestProof(tooMany), expecting(1), regtest))).toEqual({
      field: 'tx_hex',
      detail: 'tx_hex pays more satoshis than exist',
    });
  });

  it('refuses one satoshi short without accept_partial', () => {
    const tx = makeTransaction([{ address, sats: 999 }], 'regtest');
    expect(refusal(() => checkPaymentProof(regtestProof(tx), expecting(1_000), regtest))).toEqual({
      field: 'amount',
      detail: `only 999 of the 1000 satoshis arrived at ${address} (1 short); set accept_partial=true to accept it`,
    });
  });
});

describe('what a tampered proof is refused for', () => {
  const address = testAddress(7, 'regtest');
  const regtest = { network: 'regtest' as const, minWorkBits: DEFAULT_MIN_WORK_BITS, minConfirmations: 1 };
  const expectation = { address, amountSats: 1_000, acceptPartial: false };

  it('is a ProofError naming the field, for every malformed proof', () => {
    const tx = makeTransaction([{ address, sats: 1_000 }], 'regtest', 7);
    const proof = regtestProof(tx);
    const txoutProof = unhex(proof.txout_proof);
    const tooMany = joined(txoutProof.subarray(0, 84), Uint8Array.of(0xfd, 0x1b, 0x41));
    expect(refusal(() => parseMerkleBlock(tooMany)).field).toBe('txout_proof');
    expect(refusal(() => parseMerkleBlock(joined(txoutProof, Uint8Array.of(0)))).field).toBe('txout_proof');
    let error: unknown;
    try {
      parseMerkleBlock(tooMany);
    } catch (e) {
      error = e;
    }
    expect(String(error)).toBe('ProofError: txout_proof lists 16667 hashes, more than a block can hold');
  });

  it('names txout_proof when the tree does not lead to the header', () => {
    const tx = makeTransaction([{ address, sats: 1_000 }], 'regtest', 7);
    const txids = [sha256(Uint8Array.of(0xc0)), txHash(tx)];
    const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: bytesOf(32, 3), bits: REGTEST_BITS, mine: true });
    const proof = {
      tx_hex: hex(tx),
      txout_proof: hex(
        serializeMerkleBlock(
          header,
          buildPartialTree(txids, (i) => i === 1),
        ),
      ),
      headers: '',
    };
    expect(refusal(() => checkPaymentProof(proof, expectation, regtest))).toEqual({
      field: 'txout_proof',
      detail: "txout_proof's partial Merkle tree does not lead to the block header's Merkle root",
    });
  });

  it('lists every transaction a proof for others proves', () => {
    const tx = makeTransaction([{ address, sats: 1_000 }], 'regtest', 7);
    const txids = [sha256(Uint8Array.of(0xc0)), txHash(tx), sha256(Uint8Array.of(0xc2))];
    const header = makeHeader({ prev: bytesOf(32, 0), merkleRoot: merkleRoot(txids), bits: REGTEST_BITS, mine: true });
    const proof = {
      tx_hex: hex(tx),
      txout_proof: hex(
        serializeMerkleBlock(
          header,
          buildPartialTree(txids, (i) => i !== 1),
        ),
      ),
      headers: '',
    };
    expect(refusal(() => checkPaymentProof(proof, expectation, regtest)).detail).toBe(
      `txout_proof does not prove transaction ${shown(txHash(tx))}: it proves ${shown(txids[0]!)}, ${shown(txids[2]!)}`,
    );
  });

  it('stops at the last flag bit instead of reading past it', () => {
    // 16 transactions; the walk needs 9 bits (0b111111 then three pruned subtrees) but only 8 are given.
    const hashes = Array.from({ length: 5 }, (_, i) => sha256(Uint8Array.of(0xb0, i)));
    expect(refusal(() => extractMatches({ transactions: 16, hashes, flags: Uint8Array.of(0x3f) })).detail).toBe(
      "txout_proof's partial Merkle tree runs out of flag bits",
    );
  });

  it('counts only outputs paying exactly the escrow script, not one that is a prefix of it', () => {
    const script = scriptOfAddress(address, 'regtest');
    const tx = RawTx.encode({
      ...RawTx.decode(makeTransaction([{ address, sats: 1_000 }], 'regtest', 7)),
      outputs: [
        { amount: 1_000n, script },
        { amount: 5_000n, script: script.subarray(0, 2) },
      ],
    });
    expect(checkPaymentProof(regtestProof(tx), expectation, regtest)).toMatchObject({
      received_sats: 1_000,
      overpaid_sats: 0,
    });
  });
});
