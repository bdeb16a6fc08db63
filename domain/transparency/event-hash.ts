import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalEnvelope, type ChainEnvelope } from '../chain-envelope.ts';
import { toHex } from './merkle.ts';

const encoder = new TextEncoder();

/**
 * The event chain hash (SHA-256 hex over the previous hash and the canonical envelope), as domain/chain.ts makes it
 * with node:crypto, here with a portable SHA-256: what a browser uses to check a deal's proof bundle line by line.
 */
export function portableChainHash(prevHash: string, envelope: ChainEnvelope): string {
  return toHex(sha256(encoder.encode(`${prevHash}\n${canonicalEnvelope(envelope)}`)));
}
