import { describe, expect, it } from 'vitest';
import type { EscrowProof } from '../../../../../contract/transparency.ts';
import { type ChainEnvelope, GENESIS_HASH } from '../../../../../domain/chain-envelope.ts';
import { portableChainHash } from '../../../../../domain/transparency/event-hash.ts';
import {
  eventLeafHash,
  inclusionProof,
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
import { checkBundle } from './check-bundle.ts';

const ORIGIN = 'escrow.example/log';
const seed = newSeed();
const vkey = verifierKey(ORIGIN, publicKeyOf(seed));

/** A log of 7 events, the escrow's being 2, 5 and 6, and its bundle as the server gives it. */
function bundle(): EscrowProof {
  const lines: string[] = [];
  const builder = new TreeBuilder();
  const nodes = new Map<string, Uint8Array>();
  let prev = GENESIS_HASH;
  for (let position = 1; position <= 7; position++) {
    const envelope: ChainEnvelope = {
      position,
      event_id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      stream_id: [2, 5, 6].includes(position) ? 'escrow:e1' : 'user:u1',
      stream_type: 'escrow',
      stream_version: position,
      type: 'EscrowFrozen',
      schema_version: 1,
      data: { reason: `step ${position}` },
      metadata: { actor: 'system' },
      occurred_at: '2026-11-25T10:00:00.000Z',
    };
    const hash = portableChainHash(prev, envelope);
    lines.push(JSON.stringify({ ...envelope, prev_hash: prev, hash }));
    for (const n of builder.push(eventLeafHash(hash))) nodes.set(`${n.level}/${n.index}`, n.hash);
    prev = hash;
  }
  const read: NodeReader = (level, index) => nodes.get(`${level}/${index}`)!;
  const checkpoint = signNote(checkpointText({ origin: ORIGIN, size: 7, root: builder.root() }), ORIGIN, seed);
  const events = [2, 5, 6].map((position) => ({
    position,
    line: lines[position - 1]!,
    inclusion: inclusionProof(read, position - 1, 7).map(toBase64),
  }));
  return { checkpoint, vkey, events, pending_events: 0 };
}

describe("the browser's check of a deal's proof bundle", () => {
  it('passes a genuine bundle against the key the log publishes', () => {
    expect(checkBundle(bundle(), vkey)).toEqual({ ok: true, size: 7, events: 3 });
  });

  it('fails a changed line, a proof of another leaf, and a bundle naming another key', () => {
    const changed = bundle();
    changed.events[1]!.line = changed.events[1]!.line.replace('step 5', 'step 50');
    expect(checkBundle(changed, vkey)).toMatchObject({
      ok: false,
      reason: 'event 5: its hash does not match its content',
    });
    const swapped = bundle();
    swapped.events[0]!.inclusion = swapped.events[1]!.inclusion;
    expect(checkBundle(swapped, vkey)).toMatchObject({ ok: false, reason: expect.stringContaining('not included') });
    const otherKey = verifierKey(ORIGIN, publicKeyOf(newSeed()));
    expect(checkBundle(bundle(), otherKey)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('the log publishes'),
    });
  });
});
