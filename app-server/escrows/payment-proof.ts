import { refuseUnlessAllowed } from '../../domain/escrow/decide.ts';
import { escrowAggregate } from '../../domain/aggregates.ts';
import {
  checkPaymentProof,
  normaliseProof,
  type PaymentProofInput,
  ProofError,
  type ProvenPayment,
} from '../../domain/bitcoin/spv.ts';
import type { PaymentProof } from '../../domain/escrow/events.ts';
import { DomainError, invalidInput } from '../../domain/shared/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import type { Config } from '../config.ts';

/**
 * A payment proof checked against the escrow it is for: its address and amount, under the network's rules
 * (MIN_WORK_BITS, MIN_CONFIRMATIONS on mainnet). The verify-payment command records what it proves; the console's
 * preview shows the same answer without recording anything.
 */

export interface ProofRequest extends PaymentProofInput {
  accept_partial: boolean;
}

export const proofRules = (config: Pick<Config, 'BITCOIN_NETWORK' | 'MIN_WORK_BITS' | 'MIN_CONFIRMATIONS'>) => ({
  network: config.BITCOIN_NETWORK,
  minWorkBits: config.MIN_WORK_BITS,
  minConfirmations: config.MIN_CONFIRMATIONS,
});

/** Checks the proof; a proof that proves nothing is a 422 whose detail says why (and how much arrived). */
export async function checkEscrowPaymentProof(
  deps: AppDeps,
  escrowId: string,
  request: ProofRequest,
): Promise<ProvenPayment> {
  const { state } = await deps.store.aggregate(escrowAggregate, escrowId, { fresh: true });
  // A proof is judged only for a payment the escrow could take now (marked, so it has an address).
  refuseUnlessAllowed({ type: 'verifyPayment', by: 'admin', notes: '', txid: null }, state, new Date().toISOString());
  const { amount_sats } = state.context;
  const address = state.context.address ?? '';
  try {
    return checkPaymentProof(
      request,
      { address, amountSats: amount_sats, acceptPartial: request.accept_partial },
      proofRules(deps.config),
    );
  } catch (error) {
    // The detail names the field; a short payment's names accept_partial, its way out.
    if (error instanceof ProofError)
      throw invalidInput(
        error.field === 'amount' || error.message.startsWith(error.field)
          ? error.message
          : `${error.field}: ${error.message}`,
      );
    throw error;
  }
}

/** What the PaymentVerified event records of a proven payment. */
export const proofOfEvent = (proven: ProvenPayment): PaymentProof => ({
  block_hash: proven.block_hash,
  confirmations: proven.confirmations,
  received_sats: proven.received_sats,
  proof_sha256: proven.proof_sha256,
  work_judged: proven.work_judged,
});

/** The proof's row beside the log, as normalised hex. */
export const proofRow = (escrowId: string, proven: ProvenPayment, request: PaymentProofInput) => ({
  proof_sha256: proven.proof_sha256,
  escrow_id: escrowId,
  ...normaliseProof(request),
});

/** An admin's txid must be the proven one (or left out: the proof gives it). */
export function txidOfProof(given: string | null, proven: ProvenPayment): string {
  if (given !== null && given.toLowerCase() !== proven.txid)
    throw new DomainError('invalid_input', `txid ${given} is not the proven transaction ${proven.txid}`);
  return proven.txid;
}
