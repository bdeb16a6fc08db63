import type { z } from 'zod';
import type { freezeReasonSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';

/** The freeze and unfreeze dialogs' values (POST /api/admin/escrows/{id}/freeze and /unfreeze). */
export type FreezeInput = Required<z.input<typeof freezeReasonSchema>> & { escrowId: string; totp_code: string };

/** Freeze an escrow that is not final: nothing moves until it is unfrozen. */
export const freezeEscrow = ({ escrowId, reason, totp_code }: FreezeInput) =>
  api<AdminEscrow>(`/admin/escrows/${escrowId}/freeze`, {
    form: withCode({ reason: reason.trim() }, totp_code),
    fallback: 'Failed to freeze escrow',
  });

export const useFreezeEscrow = () => useAdminMutation(freezeEscrow);
