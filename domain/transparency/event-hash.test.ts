import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainHash, type ChainEnvelope, GENESIS_HASH } from '../chain.ts';
import { portableChainHash } from './event-hash.ts';

const envelopeOf = (position: number, data: unknown, metadata: unknown): ChainEnvelope => ({
  position,
  event_id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  stream_id: 'escrow:00000000-0000-4000-8000-000000000001',
  stream_type: 'escrow',
  stream_version: position,
  type: 'EscrowCreated',
  schema_version: 1,
  data,
  metadata,
  occurred_at: '2026-01-01T00:00:00.000Z',
});

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
          const envelope = envelopeOf(position, data ?? {}, metadata ?? {});
          return portableChainHash(prev, envelope) === chainHash(prev, envelope);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('changes when one character of the content does', () => {
    const envelope = envelopeOf(1, { product_service: 'Logo design', amount_cents: 10_000 }, { actor: 'system' });
    const changed = envelopeOf(1, { product_service: 'Logo design', amount_cents: 10_001 }, { actor: 'system' });
    expect(portableChainHash(GENESIS_HASH, envelope)).not.toBe(portableChainHash(GENESIS_HASH, changed));
  });
});
