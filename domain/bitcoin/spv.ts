import { sha256 } from '@noble/hashes/sha2.js';
import { Address, OutScript, RawTx } from '@scure/btc-signer';
import { type BitcoinNetwork, HRP_OF_NETWORK } from '../bitcoin-address.ts';

/**
 * Simplified payment verification (SPV) of one payment: the raw transaction, Bitcoin Core's `gettxoutproof` (a block
 * header and a BIP-37 partial Merkle tree) and zero or more headers that follow that block. Pure and offline: the
 * server checks a proof with it before recording a payment, and `verify-export --with-proofs` re-checks it later.
 *
 * What a proof shows: the transaction pays the escrow's address so many satoshis; its txid is in the block whose
 * header commits to it (the partial tree's root equals the header's Merkle root); each header's hash meets the target
 * its own bits give, and each links to the one before. On mainnet, each target is also at most the one `MIN_WORK_BITS`
 * gives (cheap low-difficulty headers prove nothing there) and there are at least `MIN_CONFIRMATIONS` headers. On the
 * test networks anyone mines a header in milliseconds, so the work is not judged, and the answer says so.
 */

export type ProofField = 'tx_hex' | 'txout_proof' | 'headers' | 'amount';

/** A proof that proves nothing: the field it fails on and a detail for a person. */
export class ProofError extends Error {
  readonly field: ProofField;
  constructor(field: ProofField, detail: string) {
    super(detail);
    this.name = 'ProofError';
    this.field = field;
  }
}

export interface PaymentProofInput {
  tx_hex: string;
  txout_proof: string;
  /** Zero or more 80-byte headers as hex, one after another (whitespace between them is allowed). */
  headers: string;
}

export interface ProofRules {
  network: BitcoinNetwork;
  /** Compact target ("bits") every header must at least meet on mainnet, e.g. 0x17034219. */
  minWorkBits: number;
  /** Headers needed on mainnet, the block's own included. */
  minConfirmations: number;
}

export interface ProofExpectation {
  /** The escrow's payment address. */
  address: string;
  amountSats: number;
  /** Accept less than `amountSats` (the shortfall is then recorded, not refused). */
  acceptPartial: boolean;
}

export interface ProvenPayment {
  txid: string;
  block_hash: string;
  /** Headers from the block to the last one given, the block's own included. */
  confirmations: number;
  received_sats: number;
  expected_sats: number;
  /** More than the amount arrived: by how much (0 when exact or short). */
  overpaid_sats: number;
  /** Less arrived (accepted only with accept_partial): by how much. */
  short_sats: number;
  /** Whether the headers' work was judged against MIN_WORK_BITS and MIN_CONFIRMATIONS (mainnet only). */
  work_judged: boolean;
  /** SHA-256 of the proof as stored (see proofSha256). */
  proof_sha256: string;
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const dsha256 = (bytes: Uint8Array) => sha256(sha256(bytes));
/** Bitcoin shows hashes byte-reversed. */
const display = (hash: Uint8Array) => hexOf(Uint8Array.from(hash).reverse());
const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The three fields as stored, normalised: lowercase, headers without whitespace. */
export function normaliseProof(input: PaymentProofInput): PaymentProofInput {
  return {
    tx_hex: input.tx_hex.trim().toLowerCase(),
    txout_proof: input.txout_proof.trim().toLowerCase(),
    headers: input.headers.replace(/\s+/g, '').toLowerCase(),
  };
}

/**
 * The proof's SHA-256, as the event records it: of the normalised fields joined by line feeds
 * (`tx_hex \n txout_proof \n headers`), so an auditor recomputes it from an export with any tool.
 */
export function proofSha256(input: PaymentProofInput): string {
  const p = normaliseProof(input);
  return hexOf(sha256(new TextEncoder().encode(`${p.tx_hex}\n${p.txout_proof}\n${p.headers}`)));
}

function bytesOfHex(field: ProofField, hex: string, what: string): Uint8Array {
  if (hex.length === 0) throw new ProofError(field, `${field} is empty: give ${what} as hexadecimal`);
  if (hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex))
    throw new ProofError(field, `${field} must be hexadecimal (${what})`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

// ---------------------------------------------------------------------------------------------------------------------
// Block headers and their work

export interface BlockHeader {
  /** The header's hash as Bitcoin shows it. */
  hash: string;
  /** The previous block's hash as Bitcoin shows it. */
  prev: string;
  /** The Merkle root as stored (internal byte order). */
  merkleRoot: Uint8Array;
  bits: number;
  /** The header's hash as a number (little-endian), to compare with the target. */
  work: bigint;
}

export function parseHeader(bytes: Uint8Array): BlockHeader {
  if (bytes.length !== 80) throw new Error('a block header is 80 bytes');
  const view = new DataView(bytes.buffer, bytes.byteOffset, 80);
  const hash = dsha256(bytes);
  return {
    hash: display(hash),
    prev: display(bytes.subarray(4, 36)),
    merkleRoot: bytes.slice(36, 68),
    bits: view.getUint32(72, true),
    work: BigInt(`0x${display(hash)}`),
  };
}

/** The target a compact "bits" value encodes, or null when it encodes none (negative, zero or over 256 bits). */
export function targetOfBits(bits: number): bigint | null {
  const exponent = bits >>> 24;
  const mantissa = bits & 0x007fffff;
  if (bits & 0x00800000 || mantissa === 0) return null;
  const target =
    exponent <= 3 ? BigInt(mantissa >>> (8 * (3 - exponent))) : BigInt(mantissa) << BigInt(8 * (exponent - 3));
  if (target === 0n || target >= 1n << 256n) return null;
  return target;
}

const bitsHex = (bits: number) => `0x${bits.toString(16).padStart(8, '0')}`;

// ---------------------------------------------------------------------------------------------------------------------
// The partial Merkle tree (BIP-37), as Bitcoin Core's CPartialMerkleTree::ExtractMatches walks it

/** No block holds more: 4,000,000 weight units over the smallest transaction's 240 (Core's bound). */
const MAX_TRANSACTIONS = Math.floor(4_000_000 / 240);

export interface MerkleBlock {
  header: BlockHeader;
  headerBytes: Uint8Array;
  transactions: number;
  hashes: Uint8Array[];
  flags: Uint8Array;
}

class Reader {
  private at = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly field: ProofField,
  ) {}
  take(n: number, what: string): Uint8Array {
    if (this.at + n > this.bytes.length) throw new ProofError(this.field, `${this.field} ends before its ${what}`);
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  u32(what: string) {
    const b = this.take(4, what);
    return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  }
  compactSize(what: string): number {
    const first = this.take(1, what)[0]!;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      const b = this.take(2, what);
      return b[0]! | (b[1]! << 8);
    }
    if (first === 0xfe) return this.u32(what);
    throw new ProofError(this.field, `${this.field} has a count too large for its ${what}`);
  }
  get left() {
    return this.bytes.length - this.at;
  }
}

/** Parses `gettxoutproof`'s output (CMerkleBlock): header, transaction count, hashes, flag bits. */
export function parseMerkleBlock(bytes: Uint8Array): MerkleBlock {
  const r = new Reader(bytes, 'txout_proof');
  const headerBytes = r.take(80, 'block header').slice();
  const transactions = r.u32('transaction count');
  const hashCount = r.compactSize('hash count');
  if (hashCount > MAX_TRANSACTIONS)
    throw new ProofError('txout_proof', `txout_proof lists ${hashCount} hashes, more than a block can hold`);
  const hashes: Uint8Array[] = [];
  for (let i = 0; i < hashCount; i++) hashes.push(r.take(32, 'hashes').slice());
  const flagBytes = r.compactSize('flag count');
  const flags = r.take(flagBytes, 'flag bits').slice();
  if (r.left !== 0)
    throw new ProofError('txout_proof', `txout_proof has ${r.left} bytes after its partial Merkle tree`);
  return { header: parseHeader(headerBytes), headerBytes, transactions, hashes, flags };
}

/**
 * Walks the partial tree depth first and returns its root and the txids it marks as matched (internal byte order).
 * Refuses every malformed tree Core refuses: no transactions or too many, more hashes than transactions, fewer flag
 * bits than hashes, a walk running out of bits or hashes, two identical children (CVE-2012-2459), and bits or hashes
 * left over.
 */
export function extractMatches(block: Pick<MerkleBlock, 'transactions' | 'hashes' | 'flags'>): {
  root: Uint8Array;
  matches: Uint8Array[];
} {
  const { transactions, hashes, flags } = block;
  const bad = (detail: string) => new ProofError('txout_proof', `txout_proof's partial Merkle tree ${detail}`);
  if (transactions === 0) throw bad('claims a block without transactions');
  if (transactions > MAX_TRANSACTIONS) throw bad(`claims ${transactions} transactions, more than a block can hold`);
  if (hashes.length > transactions) throw bad('has more hashes than the block has transactions');
  if (flags.length * 8 < hashes.length) throw bad('has fewer flag bits than hashes');

  const width = (height: number) => Math.floor((transactions + 2 ** height - 1) / 2 ** height);
  let height = 0;
  while (width(height) > 1) height++;

  let bitsUsed = 0;
  let hashesUsed = 0;
  const matches: Uint8Array[] = [];
  const walk = (h: number, pos: number): Uint8Array => {
    if (bitsUsed >= flags.length * 8) throw bad('runs out of flag bits');
    const parentOfMatch = ((flags[bitsUsed >> 3]! >> (bitsUsed & 7)) & 1) === 1;
    bitsUsed++;
    if (h === 0 || !parentOfMatch) {
      if (hashesUsed >= hashes.length) throw bad('runs out of hashes');
      const hash = hashes[hashesUsed++]!;
      if (h === 0 && parentOfMatch) matches.push(hash);
      return hash;
    }
    const left = walk(h - 1, pos * 2);
    let right = left;
    if (pos * 2 + 1 < width(h - 1)) {
      right = walk(h - 1, pos * 2 + 1);
      if (equalBytes(left, right)) throw bad('has two identical children (a duplicated transaction)');
    }
    const both = new Uint8Array(64);
    both.set(left, 0);
    both.set(right, 32);
    return dsha256(both);
  };
  const root = walk(height, 0);
  if (Math.ceil(bitsUsed / 8) !== flags.length) throw bad('has flag bytes left over');
  if (hashesUsed !== hashes.length) throw bad('has hashes left over');
  return { root, matches };
}

// ---------------------------------------------------------------------------------------------------------------------
// The transaction and where its money goes

export const NETWORK_PARAMS = {
  mainnet: { bech32: HRP_OF_NETWORK.mainnet, pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  testnet: { bech32: HRP_OF_NETWORK.testnet, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  signet: { bech32: HRP_OF_NETWORK.signet, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  regtest: { bech32: HRP_OF_NETWORK.regtest, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
} as const;

/** The output script an address pays to on a network. */
export function scriptOfAddress(address: string, network: BitcoinNetwork): Uint8Array {
  return OutScript.encode(Address(NETWORK_PARAMS[network]).decode(address));
}

export interface ParsedTransaction {
  txid: string;
  /** The txid in internal byte order, as the Merkle tree holds it. */
  hash: Uint8Array;
  outputs: { script: Uint8Array; sats: bigint }[];
}

export function parseTransaction(bytes: Uint8Array): ParsedTransaction {
  let tx: ReturnType<typeof RawTx.decode>;
  try {
    tx = RawTx.decode(bytes);
  } catch (error) {
    throw new ProofError(
      'tx_hex',
      `tx_hex is not a Bitcoin transaction (${error instanceof Error ? error.message : 'unreadable'})`,
    );
  }
  const stripped = RawTx.encode({ ...tx, segwitFlag: false, witnesses: undefined });
  // A 64-byte transaction can pass for an inner node of a Merkle tree; Core no longer relays or mines them.
  if (stripped.length === 64)
    throw new ProofError(
      'tx_hex',
      'tx_hex is 64 bytes without its witness, which a Merkle proof cannot tell from an inner node',
    );
  const hash = dsha256(stripped);
  return { txid: display(hash), hash, outputs: tx.outputs.map((o) => ({ script: o.script, sats: o.amount })) };
}

// ---------------------------------------------------------------------------------------------------------------------
// The whole check

function parseHeaders(hex: string): { header: BlockHeader; index: number }[] {
  if (hex.length === 0) return [];
  if (!/^[0-9a-f]+$/.test(hex))
    throw new ProofError('headers', 'headers must be hexadecimal (80-byte block headers, one after another)');
  if (hex.length % 160 !== 0)
    throw new ProofError(
      'headers',
      `headers must be whole 80-byte block headers (160 hexadecimal characters each); got ${hex.length / 2} bytes`,
    );
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  const out: { header: BlockHeader; index: number }[] = [];
  for (let i = 0; i < bytes.length / 80; i++)
    out.push({ header: parseHeader(bytes.subarray(i * 80, i * 80 + 80)), index: i + 1 });
  return out;
}

/** Checks one header's own work, and on mainnet its target against the floor. */
function checkWork(field: ProofField, label: string, header: BlockHeader, floor: bigint | null) {
  const target = targetOfBits(header.bits);
  if (target === null)
    throw new ProofError(
      field,
      `${label} (${header.hash}) has bits ${bitsHex(header.bits)}, which encode no valid target`,
    );
  if (header.work > target)
    throw new ProofError(
      field,
      `${label} (${header.hash}) does not meet its own target: its hash is above what bits ${bitsHex(header.bits)} allow`,
    );
  if (floor !== null && target > floor) {
    throw new ProofError(
      field,
      `${label} (${header.hash}) has too little work for mainnet: its target (bits ${bitsHex(header.bits)}) is above MIN_WORK_BITS`,
    );
  }
}

/**
 * Checks a payment proof against the escrow it is for. Answers what it proves, or throws a ProofError naming the
 * field and saying what is wrong (how much arrived, when it is less than the amount and partial payment was not
 * accepted).
 */
export function checkPaymentProof(
  input: PaymentProofInput,
  expect: ProofExpectation,
  rules: ProofRules,
): ProvenPayment {
  const proof = normaliseProof(input);
  const txBytes = bytesOfHex('tx_hex', proof.tx_hex, 'the raw transaction, as getrawtransaction prints it');
  const proofBytes = bytesOfHex('txout_proof', proof.txout_proof, 'as gettxoutproof prints it');
  const tx = parseTransaction(txBytes);
  const block = parseMerkleBlock(proofBytes);
  const following = parseHeaders(proof.headers);

  const judged = rules.network === 'mainnet';
  const floor = judged ? targetOfBits(rules.minWorkBits) : null;
  if (judged && floor === null) throw new Error(`MIN_WORK_BITS ${bitsHex(rules.minWorkBits)} encodes no valid target`);

  // Inclusion: the txid is one the tree matches, and the tree's root is the header's.
  const { root, matches } = extractMatches(block);
  if (!equalBytes(root, block.header.merkleRoot)) {
    throw new ProofError(
      'txout_proof',
      "txout_proof's partial Merkle tree does not lead to the block header's Merkle root",
    );
  }
  if (!matches.some((m) => equalBytes(m, tx.hash))) {
    throw new ProofError(
      'txout_proof',
      `txout_proof does not prove transaction ${tx.txid}: it proves ${matches.map(display).join(', ') || 'no transaction'}`,
    );
  }

  // Work and links.
  checkWork('txout_proof', "txout_proof's block header", block.header, floor);
  let previous = block.header;
  for (const { header, index } of following) {
    if (header.prev !== previous.hash) {
      throw new ProofError(
        'headers',
        `header ${index} (${header.hash}) does not link to the one before it: it follows ${header.prev}, not ${previous.hash}`,
      );
    }
    checkWork('headers', `header ${index}`, header, floor);
    previous = header;
  }
  const confirmations = 1 + following.length;
  if (judged && confirmations < rules.minConfirmations) {
    throw new ProofError(
      'headers',
      `the proof shows ${confirmations} confirmation${confirmations === 1 ? '' : 's'}; mainnet needs at least ${rules.minConfirmations} (MIN_CONFIRMATIONS): give the headers that follow the block`,
    );
  }

  // The money.
  let script: Uint8Array;
  try {
    script = scriptOfAddress(expect.address, rules.network);
  } catch {
    throw new ProofError('amount', `the escrow's address ${expect.address} is not a ${rules.network} address`);
  }
  const received = tx.outputs.filter((o) => equalBytes(o.script, script)).reduce((sum, o) => sum + o.sats, 0n);
  if (received > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ProofError('tx_hex', 'tx_hex pays more satoshis than exist');
  const receivedSats = Number(received);
  if (receivedSats === 0)
    throw new ProofError('tx_hex', `transaction ${tx.txid} pays nothing to the escrow's address ${expect.address}`);
  if (receivedSats < expect.amountSats && !expect.acceptPartial) {
    throw new ProofError(
      'amount',
      `only ${receivedSats} of the ${expect.amountSats} satoshis arrived at ${expect.address} (${expect.amountSats - receivedSats} short); set accept_partial=true to accept it`,
    );
  }
  return {
    txid: tx.txid,
    block_hash: block.header.hash,
    confirmations,
    received_sats: receivedSats,
    expected_sats: expect.amountSats,
    overpaid_sats: Math.max(0, receivedSats - expect.amountSats),
    short_sats: Math.max(0, expect.amountSats - receivedSats),
    work_judged: judged,
    proof_sha256: proofSha256(proof),
  };
}
