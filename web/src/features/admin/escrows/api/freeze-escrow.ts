import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';

export interface FreezeInput {
  escrowId: string;
  reason: string;
  totp_code: string;
}

/** Freeze an escrow that is not final: nothing moves until it is unfrozen. */
export const freezeEscrow = ({ escrowId, reason, totp_code }: FreezeInput) =>
  api<AdminEscrow>(`/admin/escrows/${escrowId}/freeze`, { form: withCode({ reason: reason.trim() }, totp_code), fallback: 'Failed to freeze escrow' });

export const useFreezeEscrow = () => useAdminMutation(freezeEscrow);
