import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  leafHash,
  type NodeReader,
  toBase64,
  TreeBuilder,
} from '../../../../../domain/transparency/merkle.ts';
import {
  checkpointText,
  newSeed,
  publicKeyOf,
  signNote,
  verifierKey,
} from '../../../../../domain/transparency/note.ts';
import { checkLogConsistency, type LogSources } from './log-consistency.ts';
import type { SeenCheckpoint, SeenCheckpointStore } from './seen-checkpoint.ts';

const ORIGIN = 'escrow.example/log';
const seed = newSeed();
const vkey = verifierKey(ORIGIN, publicKeyOf(seed));

/** A log of `size` leaves whose leaf i is the byte `i` (or, from `changedFrom` on, a different byte). */
function log(size: number, changedFrom = Infinity) {
  const builder = new TreeBuilder();
  const nodes = new Map<string, Uint8Array>();
  for (let i = 0; i < size; i++) {
    for (const n of builder.push(leafHash(new Uint8Array([i % 256, i >= changedFrom ? 1 : 0]))))
      nodes.set(`${n.level}/${n.index}`, n.hash);
  }
  const read: NodeReader = (level, index) => nodes.get(`${level}/${index}`)!;
  return {
    root: builder.root(),
    note: signNote(checkpointText({ origin: ORIGIN, size, root: builder.root() }), ORIGIN, seed),
    read,
  };
}

function memoryStore(initial?: SeenCheckpoint): SeenCheckpointStore & { value: SeenCheckpoint | null } {
  const store = {
    value: initial ?? null,
    get: (origin: string) => (origin === ORIGIN ? store.value : null),
    set: (_origin: string, seen: SeenCheckpoint) => void (store.value = seen),
  };
  return store;
}

function sources(current: ReturnType<typeof log>, seen: SeenCheckpointStore, key = vkey): LogSources {
  return {
    latest: async () => ({ note: current.note, origin: ORIGIN, vkey: key }),
    consistency: async (from, to) => ({ from, to, proof: consistencyProof(current.read, from, to).map(toBase64) }),
    seen,
    now: () => new Date('2026-11-25T12:00:00Z'),
  };
}

const seenOf = (size: number, changedFrom = Infinity): SeenCheckpoint => ({
  size,
  root_hash: toBase64(log(size, changedFrom).root),
  seen_at: '2026-11-24T12:00:00.000Z',
});

describe("the browser's consistency check against the last checkpoint it saw", () => {
  it('remembers the first checkpoint it sees, then proves each later log extends it', async () => {
    const store = memoryStore();
    expect((await checkLogConsistency(sources(log(5), store))).status).toBe('first');
    expect(store.value?.size).toBe(5);
    const grown = await checkLogConsistency(sources(log(13), store));
    expect(grown).toMatchObject({ status: 'consistent', seenSize: 5 });
    expect(store.value).toMatchObject({ size: 13, root_hash: toBase64(log(13).root) });
    expect(await checkLogConsistency(sources(log(13), store))).toMatchObject({ status: 'consistent', seenSize: 13 });
  });

  it('warns when the log was rewritten with every hash recomputed, and keeps the checkpoint it saw', async () => {
    for (const [seenSize, changedFrom, nowSize] of [
      [8, 3, 20],
      [7, 6, 7],
      [1, 0, 2],
      [16, 15, 300],
    ] as const) {
      const store = memoryStore(seenOf(seenSize));
      const result = await checkLogConsistency(sources(log(nowSize, changedFrom), store));
      expect(result.status, `seen ${seenSize}, changed from ${changedFrom}, now ${nowSize}`).toBe('rewritten');
      expect(result.status === 'rewritten' && result.reason).toMatch(/rewritten/);
      expect(store.value?.size).toBe(seenSize);
    }
  });

  it('warns when the log shrank, and when the checkpoint is not signed by the published key', async () => {
    const shrunk = await checkLogConsistency(sources(log(4), memoryStore(seenOf(9))));
    expect(shrunk).toMatchObject({ status: 'rewritten', reason: expect.stringContaining('events were removed') });
    const otherKey = verifierKey(ORIGIN, publicKeyOf(newSeed()));
    const unsigned = await checkLogConsistency(sources(log(9), memoryStore(seenOf(9)), otherKey));
    expect(unsigned).toMatchObject({
      status: 'rewritten',
      reason: expect.stringContaining("does not verify with the log's key"),
    });
  });

  it('refuses a consistency proof for other sizes than it asked for', async () => {
    const current = log(12);
    const lying: LogSources = {
      ...sources(current, memoryStore(seenOf(4))),
      consistency: async () => ({ from: 12, to: 12, proof: [] }),
    };
    expect(await checkLogConsistency(lying)).toMatchObject({ status: 'rewritten' });
  });
});
