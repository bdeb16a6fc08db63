import type { z } from 'zod';
import type { verifyPaymentSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import { type PaymentProofFields, proofForm } from './check-payment-proof.ts';

/** The verify dialog's values: the form's fields as typed, the verdict a boolean sent as its word ('true', 'false'). */
export type VerifyPaymentInput = Required<Pick<z.input<typeof verifyPaymentSchema>, 'notes' | 'txid' | 'totp_code'>> & {
  escrowId: string;
  verified: boolean;
  /** A payment proof (SPV) to verify by, when the admin pasted one. */
  proof?: PaymentProofFields;
};

/** Verify (the escrow is funded) or reject (the buyer is told and may mark again) the marked payment. */
export const verifyPayment = ({ escrowId, verified, notes, txid, totp_code, proof }: VerifyPaymentInput) =>
  api<Record<string, unknown>>(`/admin/escrows/${escrowId}/verify-payment`, {
    form: withCode(
      {
        verified: String(verified),
        notes: notes.trim(),
        ...(txid.trim() ? { txid: txid.trim() } : {}),
        ...(verified && proof ? proofForm(proof) : {}),
      },
      totp_code,
    ),
    fallback: 'Failed to verify payment',
  });

export const useVerifyPayment = () => useAdminMutation(verifyPayment);
