import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChainEnvelope,
  ChainVerifier,
  canonicalEnvelope,
  canonicalJson,
  chainHash,
  GENESIS_HASH,
} from './chain.ts';

const envelope = (position: number, data: unknown = { n: position }): ChainEnvelope => ({
  position,
  event_id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  stream_id: 'settings:pricing',
  stream_type: 'settings',
  stream_version: position,
  type: 'BtcRateSet',
  schema_version: 1,
  data,
  metadata: { actor: 'system', request_id: 'r' },
  occurred_at: '2026-01-01T00:00:00.000Z',
});

function chainOf(count: number) {
  const rows: { env: ChainEnvelope; prev: string; hash: string }[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= count; i++) {
    const env = envelope(i);
    const hash = chainHash(prev, env);
    rows.push({ env, prev, hash });
    prev = hash;
  }
  return rows;
}

describe('canonical JSON (RFC 8785)', () => {
  it('sorts keys at every depth, so a reordered jsonb object hashes the same', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,2]},"b":1}');
    expect(canonicalJson({ z: 1, a: 2 })).toBe(canonicalJson({ a: 2, z: 1 }));
  });

  it('is exactly what the RFC 8785 reference implementation writes, for any JSON an event can hold', () => {
    const json = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 4 });
    fc.assert(
      fc.property(json, (value) => canonicalJson(value) === canonicalize(value)),
      { numRuns: 2_000 },
    );
    const withUnicodeKeys = { é: 1, z: 2, '\u{1F600}': 3, Z: 4, '\uFB33': 5, 'a\u0000': 6, '': 7 };
    expect(canonicalJson(withUnicodeKeys)).toBe(canonicalize(withUnicodeKeys));
  });

  it('writes an envelope exactly as the reference implementation does, whatever its fields hold', () => {
    const json = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 });
    // Mostly well-typed fields (the fast path), sometimes anything JSON holds or nothing (a tampered export).
    const field = <T>(typed: fc.Arbitrary<T>) =>
      fc.oneof(
        { weight: 4, arbitrary: typed },
        { weight: 1, arbitrary: json },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );
    const envelopes = fc.record({
      position: field(fc.nat()),
      event_id: field(fc.uuid()),
      stream_id: field(fc.string({ unit: 'grapheme' })),
      stream_type: field(fc.constantFrom('escrow', 'user', 'review')),
      stream_version: field(fc.integer({ min: 1 })),
      type: field(fc.string()),
      schema_version: field(fc.double({ noNaN: true, noDefaultInfinity: true })),
      data: field(json),
      metadata: field(json),
      occurred_at: field(fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
    });
    fc.assert(
      fc.property(envelopes, (e) => canonicalEnvelope(e as ChainEnvelope) === canonicalize(e)),
      { numRuns: 2_000 },
    );
  });

  it('leaves out undefined fields as JSON does, and refuses values JSON cannot hold', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(() => canonicalJson({ rate: Number.NaN })).toThrow();
    expect(() => canonicalJson({ rate: Number.POSITIVE_INFINITY })).toThrow();
  });

  it('writes numbers in their shortest round-trip form', () => {
    expect(canonicalJson({ rating: 4.5, sats: 203000, zero: -0 })).toBe('{"rating":4.5,"sats":203000,"zero":0}');
  });
});

describe('ChainVerifier', () => {
  it('accepts an intact chain and ends on its last hash', () => {
    const rows = chainOf(5);
    const verifier = new ChainVerifier();
    for (const r of rows) expect(verifier.check(r.env, r.prev, r.hash)).toBeNull();
    expect(verifier.head).toEqual({ position: 5, hash: rows[4]!.hash });
  });

  it('names a changed event', () => {
    const rows = chainOf(4);
    rows[2]!.env = { ...rows[2]!.env, data: { n: 999 } };
    const verifier = new ChainVerifier();
    const breaks = rows.map((r) => verifier.check(r.env, r.prev, r.hash)).filter(Boolean);
    expect(breaks[0]).toMatchObject({ position: 3, reason: expect.stringContaining('changed') });
  });

  it('names the event after a removed one', () => {
    const rows = chainOf(4);
    rows.splice(1, 1);
    const verifier = new ChainVerifier();
    const found = rows.map((r) => verifier.check(r.env, r.prev, r.hash)).find(Boolean);
    expect(found).toMatchObject({ position: 3, reason: expect.stringContaining('removed') });
  });

  it('detects two events swapped even when their positions are rewritten to look continuous', () => {
    const rows = chainOf(4);
    const [a, b] = [rows[1]!, rows[2]!];
    rows[1] = { ...b, env: { ...b.env, position: 2 } };
    rows[2] = { ...a, env: { ...a.env, position: 3 } };
    const verifier = new ChainVerifier();
    const found = rows.map((r) => verifier.check(r.env, r.prev, r.hash)).find(Boolean);
    expect(found?.position).toBe(2);
  });
  it('counts the events it accepted', () => {
    const verifier = new ChainVerifier();
    for (const r of chainOf(3)) verifier.check(r.env, r.prev, r.hash);
    expect(verifier.count).toBe(3);
  });

  it('says which position it expected after a removed event', () => {
    const rows = chainOf(3);
    const verifier = new ChainVerifier();
    expect(verifier.check(rows[0]!.env, rows[0]!.prev, rows[0]!.hash)).toBeNull();
    expect(verifier.check(rows[2]!.env, rows[2]!.prev, rows[2]!.hash)).toEqual({
      position: 3,
      reason: 'expected position 2 after 1, found 3 (an event was removed or reordered)',
    });
    expect(verifier.count).toBe(1);
    expect(verifier.head).toEqual({ position: 1, hash: rows[0]!.hash });
  });

  it('refuses an event whose own hash is right but whose prev_hash is not the hash before it', () => {
    const rows = chainOf(2);
    const forgedPrev = 'ab'.repeat(32);
    const forged = { env: rows[1]!.env, prev: forgedPrev, hash: chainHash(forgedPrev, rows[1]!.env) };
    const verifier = new ChainVerifier();
    verifier.check(rows[0]!.env, rows[0]!.prev, rows[0]!.hash);
    expect(verifier.check(forged.env, forged.prev, forged.hash)).toEqual({
      position: 2,
      reason: 'prev_hash does not match the hash of the event before it',
    });
  });

  it('resumes from a known head, and refuses the events before it', () => {
    const rows = chainOf(5);
    const resumed = new ChainVerifier({ position: 3, hash: rows[2]!.hash });
    expect(resumed.head).toEqual({ position: 3, hash: rows[2]!.hash });
    expect(resumed.check(rows[3]!.env, rows[3]!.prev, rows[3]!.hash)).toBeNull();
    expect(resumed.check(rows[4]!.env, rows[4]!.prev, rows[4]!.hash)).toBeNull();
    expect(resumed.head).toEqual({ position: 5, hash: rows[4]!.hash });
    expect(resumed.count).toBe(2);
    const fresh = new ChainVerifier({ position: 3, hash: rows[2]!.hash });
    expect(fresh.check(rows[0]!.env, rows[0]!.prev, rows[0]!.hash)?.reason).toBe(
      'expected position 4 after 3, found 1 (an event was removed or reordered)',
    );
  });
});
