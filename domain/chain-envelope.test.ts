import { describe, expect, it } from 'vitest';
import { canonicalEnvelope, canonicalJson, type ChainEnvelope, envelopeOf } from './chain-envelope.ts';
import type { StoredEvent } from './stored-event.ts';

const envelope: ChainEnvelope = {
  position: 7,
  event_id: '00000000-0000-4000-8000-000000000007',
  stream_id: 'settings:pricing',
  stream_type: 'settings',
  stream_version: 3,
  type: 'BtcRateSet',
  schema_version: 1,
  data: { rate_cents: 6_543_210 },
  metadata: { request_id: 'r', actor: 'system' },
  occurred_at: '2026-01-01T00:00:00.000Z',
};

describe('envelopeOf', () => {
  it('keeps exactly the ten fields the hash covers, not the hashes themselves', () => {
    const stored = { ...envelope, prev_hash: '0'.repeat(64), hash: 'ab'.repeat(32) } as StoredEvent;
    expect(envelopeOf(stored)).toStrictEqual(envelope);
  });
});

describe('canonicalJson', () => {
  it('refuses a value that has no JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(new TypeError('Value has no JSON form'));
  });
});

describe('canonicalEnvelope', () => {
  it('writes the keys in sorted order, data and metadata canonical too', () => {
    expect(canonicalEnvelope(envelope)).toBe(
      '{"data":{"rate_cents":6543210},"event_id":"00000000-0000-4000-8000-000000000007",' +
        '"metadata":{"actor":"system","request_id":"r"},"occurred_at":"2026-01-01T00:00:00.000Z","position":7,' +
        '"schema_version":1,"stream_id":"settings:pricing","stream_type":"settings","stream_version":3,"type":"BtcRateSet"}',
    );
  });

  it('refuses a number JSON cannot hold in a numeric field instead of writing it as null', () => {
    for (const field of ['position', 'stream_version', 'schema_version'] as const) {
      expect(() => canonicalEnvelope({ ...envelope, [field]: Number.NaN })).toThrow();
      expect(() => canonicalEnvelope({ ...envelope, [field]: Number.POSITIVE_INFINITY })).toThrow();
    }
  });

  it('sorts the keys of objects found where text belongs (a tampered export)', () => {
    const odd = { z: 1, a: 2 };
    const tampered = {
      ...envelope,
      event_id: odd,
      stream_id: odd,
      stream_type: odd,
      type: odd,
      occurred_at: odd,
    } as unknown as ChainEnvelope;
    expect(canonicalEnvelope(tampered)).toBe(
      '{"data":{"rate_cents":6543210},"event_id":{"a":2,"z":1},"metadata":{"actor":"system","request_id":"r"},' +
        '"occurred_at":{"a":2,"z":1},"position":7,"schema_version":1,"stream_id":{"a":2,"z":1},' +
        '"stream_type":{"a":2,"z":1},"stream_version":3,"type":{"a":2,"z":1}}',
    );
  });
});
