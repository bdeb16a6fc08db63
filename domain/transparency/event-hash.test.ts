import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH } from '../chain.ts';
import { portableChainHash } from './event-hash.ts';
import { envelopeAt } from './test-fixtures.ts';

describe('the portable chain hash (what the browser checks a proof bundle with)', () => {
  it("is the server's node:crypto hash for any envelope an event can hold", () => {
    const json = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        json,
        json,
        fc.constantFrom(GENESIS_HASH, 'ab'.repeat(32)),
        (position, data, metadata, prev) => {
          const envelope = envelopeAt(position, data ?? {}, metadata ?? {});
          return portableChainHash(prev, envelope) === chainHash(prev, envelope);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('changes when one character of the content does', () => {
    const envelope = envelopeAt(1, { product_service: 'Logo design', amount_cents: 10_000 }, { actor: 'system' });
    const changed = envelopeAt(1, { product_service: 'Logo design', amount_cents: 10_001 }, { actor: 'system' });
    expect(portableChainHash(GENESIS_HASH, envelope)).not.toBe(portableChainHash(GENESIS_HASH, changed));
  });
});
