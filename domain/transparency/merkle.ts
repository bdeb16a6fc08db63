import { sha256 } from '@noble/hashes/sha2.js';

/**
 * The RFC 9162 (Certificate Transparency 2.0) Merkle tree, section 2.1: leaf hash SHA-256(0x00 || leaf), node hash
 * SHA-256(0x01 || left || right), proofs of inclusion and consistency and their checks. Pure and browser-safe: the
 * server builds proofs with it, the web app and the CLI check them with it.
 *
 * Stored nodes are the tree's complete subtrees: node (level L, index K) is the hash of leaves K*2^L .. (K+1)*2^L-1.
 * Any subtree a proof names is built from at most log2(n) of them, so a proof costs O(log n) stored hashes. The proof
 * builders take a synchronous reader of stored nodes; `nodesFor` lists which ones a proof reads, so a caller fetches
 * them in one query first.
 */

export type Hash = Uint8Array;

export const HASH_SIZE = 32;

/** SHA-256 of the empty string: the root of the empty tree. */
export const EMPTY_ROOT: Hash = sha256(new Uint8Array(0));

export function leafHash(leaf: Uint8Array): Hash {
  const input = new Uint8Array(leaf.length + 1);
  input[0] = 0;
  input.set(leaf, 1);
  return sha256(input);
}

export function nodeHash(left: Hash, right: Hash): Hash {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

/** A stored complete subtree: level (0 = leaves) and its index on that level. */
export interface NodeId {
  level: number;
  index: number;
}

/** Reads a stored complete-subtree hash; throws if it is not there. */
export type NodeReader = (level: number, index: number) => Hash;

/** The largest power of two smaller than n (n > 1). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/**
 * MTH(D[lo:hi]) for a range that a proof or root names: lo is always a multiple of the largest power of two below
 * the range's size (every range the RFC's recursion makes from [0, n) is), so it is a complete subtree or splits
 * into them.
 */
export function rangeHash(read: NodeReader, lo: number, hi: number): Hash {
  const n = hi - lo;
  if (n <= 0) return EMPTY_ROOT;
  if (isPowerOfTwo(n)) return read(Math.log2(n), lo / n);
  const k = splitPoint(n);
  return nodeHash(rangeHash(read, lo, lo + k), rangeHash(read, lo + k, hi));
}

/** The root of the tree of `size` leaves. */
export const rootHash = (read: NodeReader, size: number): Hash => rangeHash(read, 0, size);

/** RFC 9162 2.1.3.1: the audit path of leaf `index` in the tree of `size` leaves, from the leaf up. */
export function inclusionProof(read: NodeReader, index: number, size: number): Hash[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`index ${index} is not in a tree of size ${size}`);
  const path: Hash[] = [];
  const walk = (m: number, lo: number, hi: number) => {
    const n = hi - lo;
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, lo, lo + k);
      path.push(rangeHash(read, lo + k, hi));
    } else {
      walk(m - k, lo + k, hi);
      path.push(rangeHash(read, lo, lo + k));
    }
  };
  walk(index, 0, size);
  return path;
}

/** RFC 9162 2.1.4.1: the proof that the tree of `from` leaves is a prefix of the tree of `to` leaves. */
export function consistencyProof(read: NodeReader, from: number, to: number): Hash[] {
  if (!(from >= 1 && from <= to))
    throw new RangeError(`sizes ${from} and ${to} are not in order (the first at least 1)`);
  if (from === to) return [];
  const proof: Hash[] = [];
  const sub = (m: number, lo: number, hi: number, whole: boolean) => {
    const n = hi - lo;
    if (m === n) {
      if (!whole) proof.push(rangeHash(read, lo, hi));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, lo, lo + k, whole);
      proof.push(rangeHash(read, lo + k, hi));
    } else {
      sub(m - k, lo + k, hi, false);
      proof.push(rangeHash(read, lo, lo + k));
    }
  };
  sub(from, 0, to, true);
  return proof;
}

/** Which stored nodes `build` reads (run once with a recording reader), so that they can be fetched at once. */
export function nodesFor(build: (read: NodeReader) => unknown): NodeId[] {
  const seen = new Map<string, NodeId>();
  build((level, index) => {
    seen.set(`${level}/${index}`, { level, index });
    return EMPTY_ROOT;
  });
  return [...seen.values()];
}

export const equalHashes = (a: Hash, b: Hash) => a.length === b.length && a.every((x, i) => x === b[i]);

/** RFC 9162 2.1.3.2: the root that leaf `hash` at `index` and its audit path make, or null when the path cannot fit. */
export function rootFromInclusionProof(index: number, size: number, hash: Hash, proof: readonly Hash[]): Hash | null {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) return null;
  // Shifts by division: indexes beyond 2^31 stay exact.
  let fn = index;
  let sn = size - 1;
  let r = hash;
  const shift = () => {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  };
  for (const p of proof) {
    if (p.length !== HASH_SIZE || sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) shift();
    } else {
      r = nodeHash(r, p);
    }
    shift();
  }
  return sn === 0 ? r : null;
}

export function verifyInclusion(index: number, size: number, hash: Hash, proof: readonly Hash[], root: Hash): boolean {
  if (hash.length !== HASH_SIZE) return false;
  const computed = rootFromInclusionProof(index, size, hash, proof);
  return computed !== null && equalHashes(computed, root);
}

/** RFC 9162 2.1.4.2: whether `proof` shows the tree (`size1`, `root1`) is a prefix of (`size2`, `root2`). */
export function verifyConsistency(
  size1: number,
  size2: number,
  root1: Hash,
  root2: Hash,
  proof: readonly Hash[],
): boolean {
  // Nothing is proved about the empty tree (as transparency-dev/merkle holds): sizes start at 1.
  if (!(Number.isSafeInteger(size1) && Number.isSafeInteger(size2) && size1 >= 1 && size1 <= size2)) return false;
  if (size1 === size2) return proof.length === 0 && equalHashes(root1, root2);
  if (root1.length !== HASH_SIZE || root2.length !== HASH_SIZE || proof.some((p) => p.length !== HASH_SIZE))
    return false;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  const shift = () => {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  };
  while (fn % 2 === 1) shift();
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) shift();
    } else {
      sr = nodeHash(sr, c);
    }
    shift();
  }
  return sn === 0 && equalHashes(fr, root1) && equalHashes(sr, root2);
}

/**
 * Keeps a tree growing leaf by leaf in memory with only its right edge (the complete subtrees of the binary
 * decomposition of its size, at most log2(n) hashes) and reports every complete subtree each leaf finishes: what the
 * server stores, and how a checker recomputes the root of a whole log in one pass.
 */
export class TreeBuilder {
  /** The right edge, left to right: [level, hash] of each complete subtree, levels strictly decreasing. */
  private edge: { level: number; hash: Hash }[] = [];
  size = 0;

  /** Starts from a tree of `size` leaves given its right edge (levels decreasing, as `edgeOf(size)` names them). */
  static resume(size: number, edge: readonly Hash[]): TreeBuilder {
    const builder = new TreeBuilder();
    const levels = edgeOf(size).map((n) => n.level);
    if (levels.length !== edge.length)
      throw new Error(`a tree of size ${size} has ${levels.length} edge hashes, not ${edge.length}`);
    builder.edge = levels.map((level, i) => ({ level, hash: edge[i]! }));
    builder.size = size;
    return builder;
  }

  /** Adds a leaf (its hash already made) and returns the complete subtrees it finished, the leaf first. */
  push(leaf: Hash): { level: number; index: number; hash: Hash }[] {
    const index = this.size;
    const made = [{ level: 0, index, hash: leaf }];
    let hash = leaf;
    let level = 0;
    while (this.edge.length && this.edge.at(-1)!.level === level) {
      hash = nodeHash(this.edge.pop()!.hash, hash);
      level += 1;
      made.push({ level, index: Math.floor(index / 2 ** level), hash });
    }
    this.edge.push({ level, hash });
    this.size += 1;
    return made;
  }

  root(): Hash {
    if (this.edge.length === 0) return EMPTY_ROOT;
    let hash = this.edge.at(-1)!.hash;
    for (let i = this.edge.length - 2; i >= 0; i--) hash = nodeHash(this.edge[i]!.hash, hash);
    return hash;
  }
}

/** The stored nodes that make the right edge of a tree of `size` leaves, largest first. */
export function edgeOf(size: number): NodeId[] {
  const nodes: NodeId[] = [];
  let start = 0;
  for (let level = Math.floor(Math.log2(Math.max(size, 1))) + 1; level >= 0; level--) {
    const width = 2 ** level;
    if (size - start >= width) {
      nodes.push({ level, index: start / width });
      start += width;
    }
  }
  return nodes;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (RFC 4648 section 4), as checkpoints and proofs carry hashes. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out +=
      B64[(n >> 18) & 63]! +
      B64[(n >> 12) & 63]! +
      (b === undefined ? '=' : B64[(n >> 6) & 63]!) +
      (c === undefined ? '=' : B64[n & 63]!);
  }
  return out;
}

/** Strict standard base64 to bytes; null when the text is not canonical base64. */
export function fromBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n = [0, 1, 2, 3].reduce((acc, j) => (acc << 6) | Math.max(B64.indexOf(text[i + j]!), 0), 0);
    for (const byte of [(n >> 16) & 255, (n >> 8) & 255, n & 255]) if (o < out.length) out[o++] = byte;
  }
  return toBase64(out) === text ? out : null;
}

/** Each byte's two lowercase hex digits, and each character code's digit value (-1: not a lowercase hex digit). */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const DIGIT_VALUES = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) DIGIT_VALUES[d.toString(16).charCodeAt(0)] = d;

/**
 * Lowercase hex. Table-driven: the tree's catch-up and every append turn each new node into hex, and the
 * `toString(16)`/`parseInt` versions were a twelfth of the server's CPU in a profile of POST /api/escrows.
 */
export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += HEX_PAIRS[byte];
  return text;
}

/** The bytes of lowercase hex, or null if `text` is anything else (odd length, another character). */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = DIGIT_VALUES[text.charCodeAt(2 * i)] ?? -1;
    const low = DIGIT_VALUES[text.charCodeAt(2 * i + 1)] ?? -1;
    if (high < 0 || low < 0) return null;
    out[i] = high * 16 + low;
  }
  return out;
}

/** The leaf hash of the event whose chain hash (64 hex) is `chainHashHex`: leaf = the hash's 32 raw bytes. */
export function eventLeafHash(chainHashHex: string): Hash {
  const raw = fromHex(chainHashHex);
  if (!raw || raw.length !== HASH_SIZE) throw new Error('a chain hash is 64 lowercase hexadecimal characters');
  return leafHash(raw);
}
