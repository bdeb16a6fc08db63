import { describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH } from '../chain.ts';
import { eventLeafHash, type Hash, inclusionProof, type NodeReader, toBase64, TreeBuilder } from './merkle.ts';
import { checkpointText, publicKeyOf, signNote, verifierKey } from './note.ts';
import { checkProofBundle, type ProofBundle } from './proof.ts';
import { envelopeAt } from './test-fixtures.ts';

const ORIGIN = 'escrow.example/log';
const SEED = new Uint8Array(32).fill(7);
const VKEY = verifierKey(ORIGIN, publicKeyOf(SEED));
const OTHER_SEED = new Uint8Array(32).fill(9);

const envelope = (position: number) =>
  envelopeAt(position, { amount_cents: 10_000 * position }, { actor: 'system', request_id: 'r' });

/** A log of `count` chained events, its tree, and a checkpoint of its first `size` leaves signed with `seed`. */
function logOf(count: number) {
  const lines: string[] = [];
  const nodes = new Map<string, Hash>();
  const builder = new TreeBuilder();
  let prev = GENESIS_HASH;
  for (let position = 1; position <= count; position++) {
    const env = envelope(position);
    const hash = chainHash(prev, env);
    lines.push(JSON.stringify({ ...env, prev_hash: prev, hash }));
    for (const n of builder.push(eventLeafHash(hash))) nodes.set(`${n.level}/${n.index}`, n.hash);
    prev = hash;
  }
  const read: NodeReader = (level, index) => nodes.get(`${level}/${index}`)!;
  const rootOf = (size: number) => {
    const b = new TreeBuilder();
    for (let i = 0; i < size; i++) b.push(read(0, i));
    return b.root();
  };
  const checkpoint = (size = count, seed = SEED, origin = ORIGIN) =>
    signNote(checkpointText({ origin, size, root: rootOf(size) }), origin, seed);
  const item = (position: number, size = count) => ({
    position,
    line: lines[position - 1]!,
    inclusion: inclusionProof(read, position - 1, size).map(toBase64),
  });
  const bundle = (positions: number[], size = count): ProofBundle => ({
    checkpoint: checkpoint(size),
    vkey: VKEY,
    events: positions.map((p) => item(p, size)),
  });
  return { lines, checkpoint, item, bundle };
}

const check = (bundle: ProofBundle, vkey?: string) =>
  checkProofBundle(bundle, vkey === undefined ? { chainHash } : { chainHash, vkey });

describe('checkProofBundle (a deal proof checked offline)', () => {
  const log = logOf(5);

  it('accepts the first, a middle and the last event of the checkpoint, and counts them', () => {
    expect(check(log.bundle([1, 3, 5]))).toEqual({ ok: true, size: 5, events: 3 });
    expect(check(log.bundle([2], 2))).toEqual({ ok: true, size: 2, events: 1 });
    expect(check(log.bundle([]))).toEqual({ ok: true, size: 5, events: 0 });
  });

  it('checks the checkpoint against the key given rather than the one the bundle carries', () => {
    const forged: ProofBundle = {
      ...log.bundle([3]),
      checkpoint: log.checkpoint(5, OTHER_SEED),
      vkey: verifierKey(ORIGIN, publicKeyOf(OTHER_SEED)),
    };
    // On its own the forged bundle is consistent: it is signed by the key it names.
    expect(check(forged)).toEqual({ ok: true, size: 5, events: 1 });
    // The operator's published key refuses it.
    expect(check(forged, VKEY)).toEqual({ ok: false, reason: `checkpoint: no signature by the key ${ORIGIN}` });
    expect(check(log.bundle([3]), VKEY)).toEqual({ ok: true, size: 5, events: 1 });
  });

  it('refuses a checkpoint whose key is malformed or whose signature is not the key’s', () => {
    expect(check({ ...log.bundle([1]), vkey: 'not a key' })).toEqual({
      ok: false,
      reason: 'checkpoint: the verifier key is malformed',
    });
    const renamed = verifierKey('other.example/log', publicKeyOf(SEED));
    expect(check({ ...log.bundle([1]), vkey: renamed })).toEqual({
      ok: false,
      reason: 'checkpoint: no signature by the key other.example/log',
    });
  });

  it('refuses a line that is not JSON, or that is of another position', () => {
    const bundle = log.bundle([2, 3]);
    bundle.events[1] = { ...bundle.events[1]!, line: '{"position": 3' };
    expect(check(bundle)).toEqual({ ok: false, reason: 'event 3: the line is not JSON' });
    const moved = log.bundle([2, 3]);
    moved.events[1] = { ...moved.events[1]!, line: log.lines[3]! };
    expect(check(moved)).toEqual({ ok: false, reason: 'event 3: the line is of position 4' });
  });

  it.each([
    ['event_id', '00000000-0000-4000-8000-999999999999'],
    ['stream_id', 'escrow:other'],
    ['stream_type', 'user'],
    ['stream_version', 9],
    ['type', 'EscrowCancelled'],
    ['schema_version', 2],
    ['data', { amount_cents: 1 }],
    ['metadata', { actor: 'someone', request_id: 'r' }],
    ['occurred_at', '2026-01-01T00:00:00.001Z'],
    ['prev_hash', 'ab'.repeat(32)],
  ])('refuses an event whose %s was changed after it was hashed', (field, value) => {
    const bundle = log.bundle([3]);
    bundle.events[0] = { ...bundle.events[0]!, line: JSON.stringify({ ...JSON.parse(log.lines[2]!), [field]: value }) };
    expect(check(bundle)).toEqual({ ok: false, reason: 'event 3: its hash does not match its content' });
  });

  it('refuses a line without its hash', () => {
    const { hash: _hash, ...rest } = JSON.parse(log.lines[2]!);
    const bundle = log.bundle([3]);
    bundle.events[0] = { ...bundle.events[0]!, line: JSON.stringify(rest) };
    expect(check(bundle)).toEqual({ ok: false, reason: 'event 3: its hash does not match its content' });
  });

  it('refuses an event the checkpoint is too old to hold', () => {
    const bundle = log.bundle([4], 4);
    bundle.events.push({ position: 5, line: log.lines[4]!, inclusion: [] });
    expect(check(bundle)).toEqual({ ok: false, reason: "event 5: not in the checkpoint's tree of 4" });
  });

  it('refuses an event of position 0 even when its line hashes', () => {
    const env = envelope(0);
    const hash = chainHash(GENESIS_HASH, env);
    const bundle = log.bundle([]);
    bundle.events.push({ position: 0, line: JSON.stringify({ ...env, prev_hash: GENESIS_HASH, hash }), inclusion: [] });
    expect(check(bundle)).toEqual({ ok: false, reason: "event 0: not in the checkpoint's tree of 5" });
  });

  it('refuses an inclusion proof that is not base64', () => {
    const bundle = log.bundle([2]);
    bundle.events[0]!.inclusion[1] = 'not base64!';
    expect(check(bundle)).toEqual({ ok: false, reason: 'event 2: a proof hash is not base64' });
  });

  it('refuses an inclusion proof with a changed byte, a missing or extra hash, or another leaf’s path', () => {
    const refused = { ok: false, reason: "event 2: not included in the checkpoint's tree (size 5)" };
    const tampered = log.bundle([2]);
    const first = Buffer.from(tampered.events[0]!.inclusion[0]!, 'base64');
    first[31] = first[31]! ^ 1;
    tampered.events[0]!.inclusion[0] = first.toString('base64');
    expect(check(tampered)).toEqual(refused);
    const short = log.bundle([2]);
    short.events[0]!.inclusion.pop();
    expect(check(short)).toEqual(refused);
    const long = log.bundle([2]);
    long.events[0]!.inclusion.push(long.events[0]!.inclusion[0]!);
    expect(check(long)).toEqual(refused);
    const swapped = log.bundle([2]);
    swapped.events[0]!.inclusion = log.item(3).inclusion;
    expect(check(swapped)).toEqual(refused);
  });

  it('refuses a proof against a checkpoint of another size', () => {
    const bundle = { ...log.bundle([2], 4), checkpoint: log.checkpoint(5) };
    expect(check(bundle)).toEqual({ ok: false, reason: "event 2: not included in the checkpoint's tree (size 5)" });
  });

  it('stops at the first bad event', () => {
    const bundle = log.bundle([1, 2, 3]);
    bundle.events[1] = { ...bundle.events[1]!, line: 'x' };
    bundle.events[2] = { ...bundle.events[2]!, line: 'y' };
    expect(check(bundle)).toEqual({ ok: false, reason: 'event 2: the line is not JSON' });
  });
});
