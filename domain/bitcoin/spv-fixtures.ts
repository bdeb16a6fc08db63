import { sha256 } from '@noble/hashes/sha2.js';
import { Address, RawTx } from '@scure/btc-signer';
import type { BitcoinNetwork } from '../bitcoin-address.ts';
import { NETWORK_PARAMS, scriptOfAddress } from './spv.ts';

/**
 * Test helpers that build what a node prints: a partial Merkle tree (BIP-37, as Bitcoin Core's CPartialMerkleTree
 * builds it), `gettxoutproof`'s bytes, transactions, and a chain of low-difficulty headers mined in milliseconds.
 */

const dsha256 = (bytes: Uint8Array) => sha256(sha256(bytes));
export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
export const unhex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));

function concat(...parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0, true);
  return b;
};
function compactSize(n: number) {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  return concat(Uint8Array.of(0xfe), u32(n));
}

/** The Merkle root of txids in internal byte order. */
export function merkleRoot(txids: Uint8Array[]): Uint8Array {
  let level = txids;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(dsha256(concat(level[i]!, level[i + 1] ?? level[i]!)));
    level = next;
  }
  return level[0]!;
}

/** The partial Merkle tree proving the matched txids (Core's TraverseAndBuild). */
export function buildPartialTree(txids: Uint8Array[], matched: (i: number) => boolean) {
  const n = txids.length;
  const width = (h: number) => Math.floor((n + 2 ** h - 1) / 2 ** h);
  const calcHash = (h: number, pos: number): Uint8Array => {
    if (h === 0) return txids[pos]!;
    const left = calcHash(h - 1, pos * 2);
    const right = pos * 2 + 1 < width(h - 1) ? calcHash(h - 1, pos * 2 + 1) : left;
    return dsha256(concat(left, right));
  };
  const bits: boolean[] = [];
  const hashes: Uint8Array[] = [];
  const build = (h: number, pos: number) => {
    let parentOfMatch = false;
    for (let p = pos << h; p < (pos + 1) << h && p < n; p++) parentOfMatch ||= matched(p);
    bits.push(parentOfMatch);
    if (h === 0 || !parentOfMatch) {
      hashes.push(calcHash(h, pos));
      return;
    }
    build(h - 1, pos * 2);
    if (pos * 2 + 1 < width(h - 1)) build(h - 1, pos * 2 + 1);
  };
  let height = 0;
  while (width(height) > 1) height++;
  build(height, 0);
  const flags = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) flags[i >> 3]! |= 1 << (i & 7);
  });
  return { transactions: n, hashes, flags };
}

/** `gettxoutproof`'s bytes: the header, then the partial tree. */
export function serializeMerkleBlock(
  header: Uint8Array,
  tree: { transactions: number; hashes: Uint8Array[]; flags: Uint8Array },
) {
  return concat(
    header,
    u32(tree.transactions),
    compactSize(tree.hashes.length),
    ...tree.hashes,
    compactSize(tree.flags.length),
    tree.flags,
  );
}

/** An 80-byte header; with `mine`, the nonce is searched until its hash meets the bits' target. */
export function makeHeader(input: {
  prev: Uint8Array;
  merkleRoot: Uint8Array;
  bits: number;
  time?: number;
  nonce?: number;
  mine?: boolean;
}): Uint8Array {
  const header = concat(
    u32(0x20000000),
    input.prev,
    input.merkleRoot,
    u32(input.time ?? 1_700_000_000),
    u32(input.bits),
    u32(input.nonce ?? 0),
  );
  if (!input.mine) return header;
  const exponent = input.bits >>> 24;
  const target = BigInt(input.bits & 0x7fffff) << BigInt(8 * (exponent - 3));
  const view = new DataView(header.buffer);
  for (let nonce = input.nonce ?? 0; ; nonce++) {
    view.setUint32(76, nonce >>> 0, true);
    if (BigInt(`0x${hex(dsha256(header).reverse())}`) <= target) return header;
  }
}

/** The header's hash in internal byte order (what the next header's prev holds). */
export const headerHash = (header: Uint8Array) => dsha256(header);
export const txHash = (raw: Uint8Array) => dsha256(raw);

/** A transaction (no witness) spending a made-up outpoint, paying each output. */
export function makeTransaction(
  outputs: { address: string; sats: number }[],
  network: BitcoinNetwork,
  seed = 1,
): Uint8Array {
  return RawTx.encode({
    version: 2,
    segwitFlag: false,
    inputs: [{ txid: sha256(u32(seed)), index: 0, finalScriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
    outputs: outputs.map((o) => ({ amount: BigInt(o.sats), script: scriptOfAddress(o.address, network) })),
    witnesses: undefined,
    lockTime: 0,
  });
}

/** A P2WPKH address on the network whose key hash is made from `seed`: a valid address nobody holds. */
export const testAddress = (seed: number, network: BitcoinNetwork) =>
  Address(NETWORK_PARAMS[network]).encode({ type: 'wpkh', hash: sha256(u32(seed)).slice(0, 20) });

/** Regtest's proof-of-work limit: any hash under 0x7fffff << 232 (about one in two) meets it. */
export const REGTEST_BITS = 0x207fffff;

/**
 * A regtest-like chain: a block holding `payment` among `fillers` other transactions, mined at REGTEST_BITS, then
 * `following` headers linked to it. Answers the three hex fields a node would print.
 */
export function regtestProof(payment: Uint8Array, opts: { fillers?: number; following?: number; bits?: number } = {}) {
  const bits = opts.bits ?? REGTEST_BITS;
  const txids = [sha256(Uint8Array.of(0xc0)), txHash(payment)];
  for (let i = 0; i < (opts.fillers ?? 3); i++) txids.push(sha256(Uint8Array.of(0xf0, i)));
  const header = makeHeader({ prev: sha256(Uint8Array.of(0)), merkleRoot: merkleRoot(txids), bits, mine: true });
  const tree = buildPartialTree(txids, (i) => i === 1);
  const headers: Uint8Array[] = [];
  let prev = headerHash(header);
  for (let i = 0; i < (opts.following ?? 2); i++) {
    const next = makeHeader({ prev, merkleRoot: sha256(u32(i)), bits, time: 1_700_000_600 + i * 600, mine: true });
    headers.push(next);
    prev = headerHash(next);
  }
  return {
    tx_hex: hex(payment),
    txout_proof: hex(serializeMerkleBlock(header, tree)),
    headers: headers.map(hex).join(''),
    header,
    tree,
    txids,
  };
}

/** Splits a serialized block into its header and its transactions' bytes (with witness, as stored). */
export function splitBlock(block: Uint8Array): { header: Uint8Array; transactions: Uint8Array[] } {
  let at = 80;
  const varint = () => {
    const first = block[at++]!;
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    let n = 0;
    for (let i = 0; i < size; i++) n += block[at++]! * 2 ** (8 * i);
    return n;
  };
  const count = varint();
  const transactions: Uint8Array[] = [];
  for (let t = 0; t < count; t++) {
    const start = at;
    at += 4;
    const segwit = block[at] === 0 && block[at + 1] === 1;
    if (segwit) at += 2;
    const inputs = varint();
    for (let i = 0; i < inputs; i++) {
      at += 36;
      const script = varint();
      at += script + 4;
    }
    const outputs = varint();
    for (let o = 0; o < outputs; o++) {
      at += 8;
      const script = varint();
      at += script;
    }
    if (segwit) {
      for (let i = 0; i < inputs; i++) {
        const items = varint();
        for (let w = 0; w < items; w++) {
          const item = varint();
          at += item;
        }
      }
    }
    at += 4;
    transactions.push(block.slice(start, at));
  }
  if (at !== block.length) throw new Error(`block has ${block.length - at} bytes after its transactions`);
  return { header: block.slice(0, 80), transactions };
}
