import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  edgeOf,
  EMPTY_ROOT,
  eventLeafHash,
  fromBase64,
  fromHex,
  type Hash,
  inclusionProof,
  leafHash,
  nodeHash,
  type NodeReader,
  nodesFor,
  rootFromInclusionProof,
  rootHash,
  toBase64,
  toHex,
  TreeBuilder,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';

const vectors = join(import.meta.dirname, 'testdata/merkle');
const constants = readFileSync(join(vectors, 'constants.go'), 'utf8');
/** The hd("…") values of one function of transparency-dev's constants.go. */
const hexesOf = (fn: string) => {
  const body = constants.slice(
    constants.indexOf(`func ${fn}()`),
    constants.indexOf('\n}\n', constants.indexOf(`func ${fn}()`)),
  );
  return [...body.matchAll(/hd\("([0-9a-f]*)"\)/g)].map((m) => fromHex(m[1]!)!);
};
const leafInputs = hexesOf('LeafInputs');
const rootsBySize = [EMPTY_ROOT, ...hexesOf('RootHashes')];

/** Every complete subtree of a tree of the given leaf hashes, as the server stores them. */
function storedTree(leaves: readonly Hash[]) {
  const nodes = new Map<string, Hash>();
  const builder = new TreeBuilder();
  for (const leaf of leaves) for (const n of builder.push(leaf)) nodes.set(`${n.level}/${n.index}`, n.hash);
  const read: NodeReader = (level, index) => {
    const hash = nodes.get(`${level}/${index}`);
    if (!hash) throw new Error(`node ${level}/${index} is not stored`);
    return hash;
  };
  return { read, builder, nodes };
}

const b64 = (text: string | null) => (text === null ? new Uint8Array(0) : fromBase64(text)!);
const jsonFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsonFiles(join(dir, e.name)) : e.name.endsWith('.json') ? [join(dir, e.name)] : [],
  );

describe('RFC 9162 tree against transparency-dev/merkle vectors', () => {
  const tree = storedTree(leafInputs.map(leafHash));

  it('gives the published root at every size 0 to 8, from the stored nodes and from the builder', () => {
    expect(rootsBySize).toHaveLength(9);
    for (let size = 0; size <= 8; size++) {
      expect(toHex(rootHash(tree.read, size)), `size ${size}`).toBe(toHex(rootsBySize[size]!));
      const builder = new TreeBuilder();
      leafInputs.slice(0, size).forEach((leaf) => builder.push(leafHash(leaf)));
      expect(toHex(builder.root())).toBe(toHex(rootsBySize[size]!));
    }
  });

  it('stores exactly the published node hashes', () => {
    const levels = [
      hexesOf('NodeHashes').slice(0, 8),
      hexesOf('NodeHashes').slice(8, 12),
      hexesOf('NodeHashes').slice(12, 14),
      hexesOf('NodeHashes').slice(14),
    ];
    levels.forEach((hashes, level) =>
      hashes.forEach((hash, index) => expect(toHex(tree.read(level, index))).toBe(toHex(hash))),
    );
  });

  const inclusionCases = jsonFiles(join(vectors, 'inclusion')).map((file) => ({
    file,
    ...JSON.parse(readFileSync(file, 'utf8')),
  }));
  it.each(inclusionCases.map((c) => [c.file.slice(vectors.length + 1), c] as const))('inclusion %s', (_name, c) => {
    const proof = (c.proof ?? []).map(b64);
    const ok = verifyInclusion(c.leafIdx, c.treeSize, b64(c.leafHash), proof, b64(c.root));
    expect(ok).toBe(!c.wantErr);
    // Where the vector is about the published leaves, the proof the stored tree makes is the vector's own.
    if (!c.wantErr && c.treeSize <= 8 && toHex(b64(c.root)) === toHex(rootsBySize[c.treeSize]!)) {
      expect(inclusionProof(tree.read, c.leafIdx, c.treeSize).map(toBase64)).toEqual(c.proof ?? []);
    }
  });
  it('has many inclusion cases', () => expect(inclusionCases.length).toBeGreaterThan(80));

  const consistencyCases = jsonFiles(join(vectors, 'consistency')).map((file) => ({
    file,
    ...JSON.parse(readFileSync(file, 'utf8')),
  }));
  it.each(consistencyCases.map((c) => [c.file.slice(vectors.length + 1), c] as const))('consistency %s', (_name, c) => {
    const proof = (c.proof ?? []).map(b64);
    expect(verifyConsistency(c.size1, c.size2, b64(c.root1), b64(c.root2), proof)).toBe(!c.wantErr);
    if (!c.wantErr && c.size2 <= 8 && toHex(b64(c.root2)) === toHex(rootsBySize[c.size2]!) && c.size1 <= c.size2) {
      expect(consistencyProof(tree.read, c.size1, c.size2).map(toBase64)).toEqual(c.proof ?? []);
    }
  });
  it('has many consistency cases', () => expect(consistencyCases.length).toBeGreaterThan(80));
});

/** The RFC's MTH computed straight from its definition, to hold the stored tree to. */
function referenceRoot(leaves: readonly Hash[]): Hash {
  if (leaves.length === 0) return EMPTY_ROOT;
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(new Uint8Array([1, ...referenceRoot(leaves.slice(0, k)), ...referenceRoot(leaves.slice(k))]));
}

describe('property: any size, any index', () => {
  const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)));

  it('roots, inclusion and consistency proofs verify, and a changed leaf or root fails', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), fc.nat(), (size, i, j) => {
        const leaves = leavesOf(size);
        const { read, builder } = storedTree(leaves);
        const root = rootHash(read, size);
        expect(toHex(root)).toBe(toHex(referenceRoot(leaves)));
        expect(toHex(builder.root())).toBe(toHex(root));
        const index = i % size;
        const proof = inclusionProof(read, index, size);
        expect(verifyInclusion(index, size, leaves[index]!, proof, root)).toBe(true);
        expect(verifyInclusion(index, size, leaves[(index + 1) % size]!, proof, root)).toBe(size === 1 ? true : false);
        const from = 1 + (j % size);
        const older = rootHash(read, from);
        const consistency = consistencyProof(read, from, size);
        expect(verifyConsistency(from, size, older, root, consistency)).toBe(true);
        if (from < size) {
          // A rewrite: the same sizes, one early leaf changed, a new root.
          const rewritten = storedTree(leaves.map((l, n) => (n === 0 ? leafHash(new Uint8Array([9])) : l)));
          expect(
            verifyConsistency(
              from,
              size,
              older,
              rootHash(rewritten.read, size),
              consistencyProof(rewritten.read, from, size),
            ),
          ).toBe(false);
        }
        // O(log n) stored nodes per proof.
        const bound = 2 * Math.ceil(Math.log2(size + 1)) + 2;
        expect(nodesFor((r) => inclusionProof(r, index, size)).length).toBeLessThanOrEqual(bound);
        expect(nodesFor((r) => consistencyProof(r, from, size)).length).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 200 },
    );
  });

  it('resumes from the right edge alone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 50 }), (start, more) => {
        const leaves = leavesOf(start + more);
        const { read } = storedTree(leaves);
        const resumed = TreeBuilder.resume(
          start,
          edgeOf(start).map((n) => read(n.level, n.index)),
        );
        leaves.slice(start).forEach((l) => resumed.push(l));
        expect(toHex(resumed.root())).toBe(toHex(referenceRoot(leaves)));
      }),
    );
  });
});

describe('base64', () => {
  it('round-trips and refuses non-canonical text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(toHex(fromBase64(toBase64(bytes))!)).toBe(toHex(bytes));
      }),
    );
    expect(toBase64(new TextEncoder().encode('foobar'))).toBe(Buffer.from('foobar').toString('base64'));
    expect(fromBase64('Zm9vYg')).toBeNull();
    expect(fromBase64('Zm9vYh==')).toBeNull();
    expect(fromBase64('Zm9v YmE=')).toBeNull();
  });
});

describe('hex', () => {
  it("round-trips any bytes as Node's lowercase hex, and refuses any other text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        const text = toHex(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('hex'));
        expect(Buffer.from(fromHex(text)!)).toEqual(Buffer.from(bytes));
      }),
    );
    for (const bad of ['0', 'abc', 'AB', '0g', 'g0', ' 00', '00 ', '0\u00e9', '\u0130\u0130'])
      expect(fromHex(bad), JSON.stringify(bad)).toBeNull();
    expect(fromHex('')).toEqual(new Uint8Array(0));
  });
});

describe('proofs at their edges', () => {
  const leaves = Array.from({ length: 8 }, (_, i) => leafHash(new Uint8Array([i])));
  const { read } = storedTree(leaves);
  const h = (n: number) => sha256(new Uint8Array([n]));

  it('refuses to build a proof for a leaf outside the tree, or for sizes out of order', () => {
    expect(() => inclusionProof(read, 5, 5)).toThrow(new RangeError('index 5 is not in a tree of size 5'));
    expect(() => inclusionProof(read, -1, 5)).toThrow(new RangeError('index -1 is not in a tree of size 5'));
    expect(inclusionProof(read, 4, 5)).toHaveLength(1);
    expect(() => consistencyProof(read, 0, 5)).toThrow(
      new RangeError('sizes 0 and 5 are not in order (the first at least 1)'),
    );
    expect(() => consistencyProof(read, 6, 5)).toThrow(
      new RangeError('sizes 6 and 5 are not in order (the first at least 1)'),
    );
    expect(consistencyProof(read, 5, 5)).toEqual([]);
  });

  it('lists each stored node a proof reads, once, in the order it reads them', () => {
    expect(nodesFor((r) => inclusionProof(r, 0, 5))).toEqual([
      { level: 0, index: 1 },
      { level: 1, index: 1 },
      { level: 0, index: 4 },
    ]);
    expect(
      nodesFor((r) => {
        r(2, 0);
        r(0, 3);
        r(2, 0);
      }),
    ).toEqual([
      { level: 2, index: 0 },
      { level: 0, index: 3 },
    ]);
  });

  it('makes no root from an index or size that is not a whole number in range', () => {
    const proof = inclusionProof(read, 1, 4);
    expect(toHex(rootFromInclusionProof(1, 4, leaves[1]!, proof)!)).toBe(toHex(rootHash(read, 4)));
    for (const [index, size] of [
      [-1, 4],
      [4, 4],
      [5, 4],
      [1.5, 4],
      [0, 4.5],
      [2 ** 53, 2 ** 53 + 2],
    ] as const) {
      expect(rootFromInclusionProof(index, size, leaves[1]!, proof), `${index} of ${size}`).toBeNull();
    }
  });

  it('makes no root from a path with a hash of another length, or longer than the tree is high', () => {
    const proof = inclusionProof(read, 1, 4);
    expect(rootFromInclusionProof(1, 4, leaves[1]!, [proof[0]!, proof[1]!.slice(1)])).toBeNull();
    expect(rootFromInclusionProof(1, 4, leaves[1]!, [proof[0]!, new Uint8Array([...proof[1]!, 0])])).toBeNull();
    expect(rootFromInclusionProof(1, 4, leaves[1]!, [...proof, h(1)])).toBeNull();
    expect(rootFromInclusionProof(1, 4, leaves[1]!, proof.slice(0, 1))).toBeNull();
  });

  it('refuses a root with a byte more, or a leaf hash of another length', () => {
    const proof = inclusionProof(read, 2, 8);
    const root = rootHash(read, 8);
    expect(verifyInclusion(2, 8, leaves[2]!, proof, root)).toBe(true);
    expect(verifyInclusion(2, 8, leaves[2]!, proof, new Uint8Array([...root, 0]))).toBe(false);
    expect(verifyInclusion(2, 8, leaves[2]!, proof, root.slice(0, 31))).toBe(false);
    expect(verifyInclusion(2, 8, new Uint8Array([...leaves[2]!, 0]), proof, root)).toBe(false);
  });

  it('refuses sizes out of order or not whole, even with hashes arranged to fit', () => {
    // For (3, 2) the walk would accept root1 = p0 and root2 = H(p0, p1).
    const [p0, p1] = [h(1), h(2)];
    expect(verifyConsistency(3, 2, p0, nodeHash(p0, p1), [p0, p1])).toBe(false);
    // For (1.5, 2) likewise.
    expect(verifyConsistency(1.5, 2, p0, nodeHash(p0, p1), [p0, p1])).toBe(false);
    expect(verifyConsistency(1, 2 ** 53, p0, nodeHash(p0, p1), [p1])).toBe(false);
    expect(verifyConsistency(1, 2, p0, nodeHash(p0, p1), [p1])).toBe(true);
  });

  it('refuses a root or a proof hash of another length, even when the rest would fit', () => {
    const long = new Uint8Array([...h(1), 0]);
    // Size 1 to 2: the old root is the first element of the path, the new one H(old, p).
    expect(verifyConsistency(1, 2, long, nodeHash(long, h(2)), [h(2)])).toBe(false);
    expect(verifyConsistency(1, 2, h(1), nodeHash(h(1), long), [long])).toBe(false);
    // Size 1 to 3: H(H(old, p1), p2).
    expect(verifyConsistency(1, 3, h(1), nodeHash(nodeHash(h(1), h(2)), long), [h(2), long])).toBe(false);
    expect(verifyConsistency(1, 3, h(1), nodeHash(nodeHash(h(1), h(2)), h(3)), [h(2), h(3)])).toBe(true);
  });

  it('refuses a consistency proof longer than the trees allow, whatever roots it is given', () => {
    // Size 3 to 4 takes [p0, p1, p2]: root1 = H(p2, p0), root2 = H(p2, H(p0, p1)). A fourth hash would wrap both.
    const [p0, p1, p2, p3] = [h(1), h(2), h(3), h(4)];
    expect(verifyConsistency(3, 4, nodeHash(p2, p0), nodeHash(p2, nodeHash(p0, p1)), [p0, p1, p2])).toBe(true);
    expect(
      verifyConsistency(3, 4, nodeHash(p3, nodeHash(p2, p0)), nodeHash(p3, nodeHash(p2, nodeHash(p0, p1))), [
        p0,
        p1,
        p2,
        p3,
      ]),
    ).toBe(false);
  });

  it('refuses to resume from an edge of the wrong length', () => {
    expect(() => TreeBuilder.resume(5, [h(1)])).toThrow('a tree of size 5 has 2 edge hashes, not 1');
    expect(TreeBuilder.resume(5, [h(1), h(2)]).root()).toEqual(nodeHash(h(1), h(2)));
  });
});

describe('hex and event leaves', () => {
  it('reads lowercase hex of whole bytes only', () => {
    expect(fromHex('00ff7a')).toEqual(new Uint8Array([0, 255, 122]));
    expect(fromHex('')).toEqual(new Uint8Array(0));
    for (const text of ['zz', 'abc', 'AB', ' ab', 'ab ', 'xxab', 'abxx']) expect(fromHex(text), text).toBeNull();
  });

  it('makes the leaf of an event from the 32 raw bytes of its chain hash', () => {
    const chain = 'ab'.repeat(32);
    expect(eventLeafHash(chain)).toEqual(leafHash(fromHex(chain)!));
    expect(toHex(eventLeafHash(chain))).toBe(toHex(sha256(new Uint8Array([0, ...new Uint8Array(32).fill(0xab)]))));
    const message = 'a chain hash is 64 lowercase hexadecimal characters';
    expect(() => eventLeafHash('ab'.repeat(31))).toThrow(message);
    expect(() => eventLeafHash('ab'.repeat(33))).toThrow(message);
    expect(() => eventLeafHash('AB'.repeat(32))).toThrow(message);
    expect(() => eventLeafHash('')).toThrow(message);
  });
});
