import { addressProofMessage, verifyBip322Simple } from '../../domain/bitcoin/bip322.ts';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import { invalidInput } from '../../domain/shared/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import { publicUrl } from '../config.ts';

/**
 * Payout and refund addresses proven by a BIP-322 signature (contract.md section 9): the message a party signs, and
 * the check of a signature sent with an address. PAYOUT_PROOF_REQUIRED makes the signature required.
 */

/** The exact message for this escrow, side and address, naming this service's origin. */
export const addressMessageFor = (
  deps: Pick<AppDeps, 'config'>,
  input: { escrowId: string; side: 'buyer' | 'seller'; address: string },
) => addressProofMessage({ origin: publicUrl(deps.config), ...input });

/** The signature to record (checked), or none; a bad or missing-but-required one is a 422 naming `signature`. */
export function checkAddressProof(
  deps: Pick<AppDeps, 'config'>,
  input: { escrowId: string; by: EscrowActor; address: string; signature?: string | undefined },
): string | undefined {
  const signature = input.signature?.trim() || undefined;
  if (input.by !== 'buyer' && input.by !== 'seller') return undefined;
  if (!signature) {
    if (deps.config.PAYOUT_PROOF_REQUIRED)
      throw invalidInput(
        'signature is required: sign the address message with this address (BIP-322) to prove you control it',
      );
    return undefined;
  }
  const message = addressMessageFor(deps, { escrowId: input.escrowId, side: input.by, address: input.address });
  const checked = verifyBip322Simple(input.address, message, signature, deps.config.BITCOIN_NETWORK);
  if (!checked.ok)
    throw invalidInput(checked.reason.startsWith('signature') ? checked.reason : `signature: ${checked.reason}`);
  return signature;
}
