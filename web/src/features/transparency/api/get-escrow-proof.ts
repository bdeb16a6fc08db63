import { escrowProofSchema, type EscrowProof } from '../../../../../contract/transparency.ts';
import { api } from '../../../api/client.ts';

/** A deal's proof bundle: the signed checkpoint, its key, each event's export line with its inclusion proof. */
export const getEscrowProof = async (escrowId: string, signal?: AbortSignal): Promise<EscrowProof> =>
  escrowProofSchema.parse(
    await api<unknown>(`/escrows/${encodeURIComponent(escrowId)}/proof`, {
      ...(signal ? { signal } : {}),
      fallback: "Could not fetch this escrow's proof.",
    }),
  );
