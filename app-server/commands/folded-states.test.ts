import { describe, expect, it } from 'vitest';
import type { Aggregate } from '../../domain/aggregates.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { foldAppended, foldStream } from './folded-states.ts';

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

const event = (version: number, note: string, hash = `${note}-${version}`) =>
  ({ stream_id: 'escrow:x', stream_version: version, type: 'EscrowFrozen', data: { note }, hash }) as unknown as StoredEvent;

describe('foldStream', () => {
  it('folds only the events appended since the stream was last folded', () => {
    const { aggregate, counter } = recorder();
    const history = [event(1, 'a'), event(2, 'b'), event(3, 'c')];
    expect(foldStream(aggregate, 'escrow:x', history)).toEqual(['a', 'b', 'c']);
    expect(foldStream(aggregate, 'escrow:x', [...history, event(4, 'd')])).toEqual(['a', 'b', 'c', 'd']);
    expect(counter.folds).toBe(4);
  });

  it('folds from the start when the stream holds other events than the state was folded from', () => {
    const { aggregate } = recorder();
    foldStream(aggregate, 'escrow:x', [event(1, 'a'), event(2, 'b')]);
    // Same stream and versions, different history (another database, or a log rebuilt): the hashes differ.
    expect(foldStream(aggregate, 'escrow:x', [event(1, 'p'), event(2, 'q'), event(3, 'r')])).toEqual(['p', 'q', 'r']);
    // A stream shorter than the kept state is folded afresh too.
    expect(foldStream(aggregate, 'escrow:x', [event(1, 'p')])).toEqual(['p']);
  });

  it('keeps the state a command leaves, so the stream\'s next command folds nothing it appended', () => {
    const { aggregate, counter } = recorder();
    const history = [event(1, 'a'), event(2, 'b')];
    const before = foldStream(aggregate, 'escrow:x', history);
    const after = foldAppended(aggregate, 'escrow:x', before, [event(3, 'c')]);
    expect(counter.folds).toBe(2); // not folded until asked for
    expect(after()).toEqual(['a', 'b', 'c']);
    expect(foldStream(aggregate, 'escrow:x', [...history, event(3, 'c')])).toEqual(['a', 'b', 'c']);
    expect(counter.folds).toBe(3);
    // Had the append not been the one that landed at version 3, the stream's event there differs: folded afresh.
    expect(foldStream(aggregate, 'escrow:x', [...history, event(3, 'z')])).toEqual(['a', 'b', 'z']);
  });

  it('keeps states apart per stream and per aggregate', () => {
    const first = recorder();
    const second = recorder();
    foldStream(first.aggregate, 'escrow:x', [event(1, 'a')]);
    expect(foldStream(second.aggregate, 'escrow:x', [event(1, 'a'), event(2, 'b')])).toEqual(['a', 'b']);
    expect(foldStream(first.aggregate, 'escrow:y', [event(1, 'a', 'other')])).toEqual(['a']);
    expect(second.counter.folds).toBe(2);
  });
});
