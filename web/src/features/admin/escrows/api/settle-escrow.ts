import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';

export interface SettleInput {
  escrowId: string;
  txid: string;
  /** The seller's payout and the buyer's refund address the dialog showed: a change since is refused (409). */
  expected_address: string;
  expected_refund_address: string;
  totp_code: string;
}

/** Pays out the refund or split both parties agreed to (contract 7.5): no outcome text, the agreed terms. */
export const settleEscrow = ({ escrowId, txid, expected_address, expected_refund_address, totp_code }: SettleInput) =>
  api<AdminEscrow>(`/admin/escrows/${escrowId}/resolve`, {
    form: withCode(
      { expected_address, expected_refund_address, ...(txid.trim() ? { txid: txid.trim() } : {}) },
      totp_code,
    ),
    fallback: 'Failed to pay out the settlement',
  });

export const useSettleEscrow = () => useAdminMutation(settleEscrow);
