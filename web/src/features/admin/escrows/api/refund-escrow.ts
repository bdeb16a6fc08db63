import { api } from '../../../../api/client.ts';
import { useAdminMutation } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';
import { type MoneyActionInput, moneyForm } from './release-escrow.ts';

/** Refund a funded escrow to the buyer's refund address. */
export const refundEscrow = (input: MoneyActionInput) =>
  api<AdminEscrow>(`/admin/escrows/${input.escrowId}/refund`, {
    form: moneyForm(input),
    fallback: 'Failed to refund escrow',
  });

export const useRefundEscrow = () => useAdminMutation(refundEscrow);
