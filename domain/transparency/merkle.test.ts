import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  edgeOf,
  EMPTY_ROOT,
  fromBase64,
  fromHex,
  type Hash,
  inclusionProof,
  leafHash,
  type NodeReader,
  nodesFor,
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
