import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { paymentProofAnswerSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';

/** What a payment proof proves for an escrow (POST /api/admin/escrows/{id}/payment-proof: nothing is recorded). */
export type ProvenPayment = z.infer<typeof paymentProofAnswerSchema>;

/** The Verify dialog's proof fields, as the admin's node printed them. */
export interface PaymentProofFields {
  tx_hex: string;
  txout_proof: string;
  headers: string;
  accept_partial: boolean;
}

export const hasProof = (p: PaymentProofFields) => Boolean(p.tx_hex.trim() || p.txout_proof.trim() || p.headers.trim());

/** The fields as the form sends them (empty ones left out). */
export const proofForm = (p: PaymentProofFields): Record<string, string> =>
  hasProof(p)
    ? {
        tx_hex: p.tx_hex.trim(),
        txout_proof: p.txout_proof.trim(),
        ...(p.headers.trim() ? { headers: p.headers.trim() } : {}),
        accept_partial: String(p.accept_partial),
      }
    : {};

export const checkPaymentProof = ({ escrowId, proof }: { escrowId: string; proof: PaymentProofFields }) =>
  api<ProvenPayment>(`/admin/escrows/${escrowId}/payment-proof`, {
    form: proofForm(proof),
    fallback: 'Failed to check the proof',
  });

export const useCheckPaymentProof = () => useMutation({ mutationFn: checkPaymentProof });
