import type { z } from 'zod';
import type { adminCancelSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';

/** The cancel dialog's values (POST /api/admin/escrows/{id}/cancel). */
export type CancelInput = Pick<z.input<typeof adminCancelSchema>, 'reason'> & { escrowId: string; totp_code: string };

/** Cancel an unpaid escrow with a reason both parties are mailed; its payment address goes back to the pool. */
export const cancelEscrow = ({ escrowId, reason, totp_code }: CancelInput) =>
  api<AdminEscrow>(`/admin/escrows/${escrowId}/cancel`, {
    form: withCode({ reason: reason.trim() }, totp_code),
    fallback: 'Failed to cancel escrow',
  });

export const useCancelEscrow = () => useAdminMutation(cancelEscrow);
