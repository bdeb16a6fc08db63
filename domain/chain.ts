import { hash } from 'node:crypto';
import { canonicalEnvelope, type ChainEnvelope, GENESIS_HASH } from './chain-envelope.ts';

export { canonicalEnvelope, canonicalJson, type ChainEnvelope, envelopeOf, GENESIS_HASH } from './chain-envelope.ts';

/** SHA-256 (hex) over the previous hash and the canonical envelope. */
export function chainHash(prevHash: string, envelope: ChainEnvelope): string {
  return hash('sha256', `${prevHash}\n${canonicalEnvelope(envelope)}`, 'hex');
}

export type ChainBreak = { position: number; reason: string };

/**
 * Walks envelopes in order and reports the first break: a changed event (hash mismatch), a removed or reordered
 * one (position gap, or prev_hash not the hash before it). Feed it batch by batch; it keeps only the last hash.
 */
export class ChainVerifier {
  private lastHash = GENESIS_HASH;
  private lastPosition = 0;
  count = 0;

  constructor(start?: { position: number; hash: string }) {
    if (start) {
      this.lastHash = start.hash;
      this.lastPosition = start.position;
    }
  }

  get head(): { position: number; hash: string } {
    return { position: this.lastPosition, hash: this.lastHash };
  }

  /** Returns the break at this event, or null when it links correctly. */
  check(envelope: ChainEnvelope, prevHash: string, hash: string): ChainBreak | null {
    const { position } = envelope;
    if (position !== this.lastPosition + 1) {
      return {
        position,
        reason: `expected position ${this.lastPosition + 1} after ${this.lastPosition}, found ${position} (an event was removed or reordered)`,
      };
    }
    if (prevHash !== this.lastHash) {
      return { position, reason: 'prev_hash does not match the hash of the event before it' };
    }
    if (chainHash(prevHash, envelope) !== hash) {
      return { position, reason: 'hash does not match the event content (the event was changed)' };
    }
    this.lastHash = hash;
    this.lastPosition = position;
    this.count++;
    return null;
  }
}
