import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { FreezeInput } from './freeze-escrow.ts';
import type { AdminEscrow } from './get-escrow.ts';

/** Unfreeze: back to the status it had. */
export const unfreezeEscrow = ({ escrowId, reason, totp_code }: FreezeInput) =>
  api<AdminEscrow>(`/admin/escrows/${escrowId}/unfreeze`, {
    form: withCode({ reason: reason.trim() }, totp_code),
    fallback: 'Failed to unfreeze escrow',
  });

export const useUnfreezeEscrow = () => useAdminMutation(unfreezeEscrow);
