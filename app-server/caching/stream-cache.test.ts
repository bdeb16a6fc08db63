import { describe, expect, it } from 'vitest';
import type { Aggregate } from '../../domain/aggregates.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { StreamCache } from './stream-cache.ts';

/** An aggregate whose state is the list of what it folded, counting its folds. */
function recorder() {
  const counter = { folds: 0 };
  const aggregate: Aggregate<string[], never> = {
    streamType: 'escrow',
    initial: () => [],
    evolve: (state, event) => {
      counter.folds += 1;
      return [...state, (event.data as { note: string }).note];
    },
    decide: () => [],
  };
  return { aggregate, counter };
}

const event = (version: number, note: string, hash = `${note}-${version}`, stream = 'escrow:x') =>
  ({
    stream_id: stream,
    stream_version: version,
    type: 'EscrowFrozen',
    data: { note },
    hash,
  }) as unknown as StoredEvent;

/** A cache that holds `events` for their stream, as after a read from the database. */
function holding(events: StoredEvent[]) {
  const cache = new StreamCache();
  cache.remember(events[0]!.stream_id, [...events]);
  return cache;
}

describe('StreamCache', () => {
  it('folds only the events appended since the stream was last folded', () => {
    const { aggregate, counter } = recorder();
    const history = [event(1, 'a'), event(2, 'b'), event(3, 'c')];
    const cache = holding(history);
    expect(cache.fold(aggregate, 'escrow:x', history)).toEqual(['a', 'b', 'c']);
    expect(cache.fold(aggregate, 'escrow:x', [...history, event(4, 'd')])).toEqual(['a', 'b', 'c', 'd']);
    expect(counter.folds).toBe(4);
  });

  it('folds from the start when the stream holds other events than the state was folded from', () => {
    const { aggregate } = recorder();
    const cache = holding([event(1, 'a'), event(2, 'b')]);
    cache.fold(aggregate, 'escrow:x', [event(1, 'a'), event(2, 'b')]);
    // Same stream and versions, different history (another database, or a log rebuilt): the hashes differ.
    expect(cache.fold(aggregate, 'escrow:x', [event(1, 'p'), event(2, 'q'), event(3, 'r')])).toEqual(['p', 'q', 'r']);
    // A stream shorter than the kept state is folded afresh too.
    expect(cache.fold(aggregate, 'escrow:x', [event(1, 'p')])).toEqual(['p']);
  });

  it("carries the state forward over what this process appended, so the stream's next command folds only that, once", () => {
    const { aggregate, counter } = recorder();
    const history = [event(1, 'a'), event(2, 'b')];
    const cache = holding(history);
    cache.fold(aggregate, 'escrow:x', history);
    cache.committed([event(3, 'c')]);
    expect(counter.folds).toBe(2); // not folded until asked for
    expect(cache.events('escrow:x')).toHaveLength(3);
    expect(cache.fold(aggregate, 'escrow:x', cache.events('escrow:x')!)).toEqual(['a', 'b', 'c']);
    expect(counter.folds).toBe(3);
    // Had the append not been the one that landed at version 3, the stream's event there differs: folded afresh.
    expect(cache.fold(aggregate, 'escrow:x', [...history, event(3, 'z')])).toEqual(['a', 'b', 'z']);
  });

  it('drops a stream whose committed events do not follow what it holds, and keeps one they start', () => {
    const cache = holding([event(1, 'a')]);
    cache.committed([event(3, 'c')]);
    expect(cache.events('escrow:x')).toBeUndefined();
    cache.committed([event(1, 'n', 'n-1', 'escrow:y')]);
    expect(cache.events('escrow:y')).toHaveLength(1);
  });

  it('keeps states apart per stream and per aggregate', () => {
    const first = recorder();
    const second = recorder();
    const cache = holding([event(1, 'a')]);
    cache.remember('escrow:y', [event(1, 'a', 'other', 'escrow:y')]);
    cache.fold(first.aggregate, 'escrow:x', [event(1, 'a')]);
    expect(cache.fold(second.aggregate, 'escrow:x', [event(1, 'a'), event(2, 'b')])).toEqual(['a', 'b']);
    expect(cache.fold(first.aggregate, 'escrow:y', [event(1, 'a', 'other', 'escrow:y')])).toEqual(['a']);
    expect(second.counter.folds).toBe(2);
  });
});
