import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export interface VerifyPaymentInput {
  escrowId: string;
  verified: boolean;
  notes: string;
  txid: string;
  totp_code: string;
}

/** Verify (the escrow is funded) or reject (the buyer is told and may mark again) the marked payment. */
export const verifyPayment = ({ escrowId, verified, notes, txid, totp_code }: VerifyPaymentInput) =>
  api<Record<string, unknown>>(`/admin/escrows/${escrowId}/verify-payment`, {
    form: withCode({ verified: String(verified), notes: notes.trim(), ...(txid.trim() ? { txid: txid.trim() } : {}) }, totp_code),
    fallback: 'Failed to verify payment',
  });

export const useVerifyPayment = () => useAdminMutation(verifyPayment);
