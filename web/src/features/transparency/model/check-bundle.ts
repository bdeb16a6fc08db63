import type { EscrowProof } from '../../../../../contract/transparency.ts';
import { portableChainHash } from '../../../../../domain/transparency/event-hash.ts';
import { type BundleCheck, checkProofBundle } from '../../../../../domain/transparency/proof.ts';

/**
 * The browser's own check of a deal's proof bundle: each line's hash from its content, each event's inclusion in the
 * checkpoint's tree, and the checkpoint's signature by `vkey`, the key the log publishes (not the bundle's own word).
 */
export function checkBundle(bundle: EscrowProof, vkey: string): BundleCheck {
  if (bundle.vkey !== vkey)
    return { ok: false, reason: `the bundle names the key ${bundle.vkey}, the log publishes ${vkey}` };
  return checkProofBundle(bundle, { chainHash: portableChainHash, vkey });
}
