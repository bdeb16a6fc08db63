import type { ChainEnvelope } from '../chain-envelope.ts';
import { eventLeafHash, fromBase64, verifyInclusion } from './merkle.ts';
import { verifyCheckpoint } from './note.ts';

/** A deal's proof bundle as GET /api/escrows/{id}/proof gives it. */
export interface ProofBundle {
  checkpoint: string;
  vkey: string;
  events: { position: number; line: string; inclusion: string[] }[];
}

export type BundleCheck = { ok: true; size: number; events: number } | { ok: false; reason: string };

/**
 * Checks a proof bundle offline: the checkpoint's signature by `vkey` (the bundle's own unless one is given), each
 * line's hash from its content and prev_hash, each event's inclusion in the checkpoint's tree. `chainHash` is the
 * event hash function (the server's domain/chain.ts; injected so that this module stays browser-safe).
 */
export function checkProofBundle(
  bundle: ProofBundle,
  options: { chainHash: (prevHash: string, envelope: ChainEnvelope) => string; vkey?: string },
): BundleCheck {
  const checked = verifyCheckpoint(bundle.checkpoint, options.vkey ?? bundle.vkey);
  if (!checked.ok) return { ok: false, reason: `checkpoint: ${checked.reason}` };
  const { size, root } = checked.checkpoint;
  for (const item of bundle.events) {
    let event: ChainEnvelope & { prev_hash: string; hash: string };
    try {
      event = JSON.parse(item.line);
    } catch {
      return { ok: false, reason: `event ${item.position}: the line is not JSON` };
    }
    if (event.position !== item.position)
      return { ok: false, reason: `event ${item.position}: the line is of position ${event.position}` };
    const { prev_hash, hash, ...rest } = event;
    const envelope: ChainEnvelope = {
      position: rest.position,
      event_id: rest.event_id,
      stream_id: rest.stream_id,
      stream_type: rest.stream_type,
      stream_version: rest.stream_version,
      type: rest.type,
      schema_version: rest.schema_version,
      data: rest.data,
      metadata: rest.metadata,
      occurred_at: rest.occurred_at,
    };
    if (typeof hash !== 'string' || options.chainHash(prev_hash, envelope) !== hash)
      return { ok: false, reason: `event ${item.position}: its hash does not match its content` };
    if (item.position < 1 || item.position > size)
      return { ok: false, reason: `event ${item.position}: not in the checkpoint's tree of ${size}` };
    const proof = item.inclusion.map((p) => fromBase64(p));
    if (proof.some((p) => p === null))
      return { ok: false, reason: `event ${item.position}: a proof hash is not base64` };
    if (!verifyInclusion(item.position - 1, size, eventLeafHash(hash), proof as Uint8Array[], root)) {
      return { ok: false, reason: `event ${item.position}: not included in the checkpoint's tree (size ${size})` };
    }
  }
  return { ok: true, size, events: bundle.events.length };
}
