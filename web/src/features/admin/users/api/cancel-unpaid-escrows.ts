import type { z } from 'zod';
import type {
  cancelledUnpaidEscrowsSchema,
  cancelUnpaidEscrowsSchema,
} from '../../../../../../contract/admin-user-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export type CancelledUnpaidEscrows = z.infer<typeof cancelledUnpaidEscrowsSchema>;

/** Every unpaid escrow of a suspended account ends, its payment address freed; the answer says what was left and why. */
export const cancelUnpaidEscrows = ({
  id,
  reason,
  totp_code,
}: Pick<z.input<typeof cancelUnpaidEscrowsSchema>, 'reason'> & { id: string; totp_code: string }) =>
  api<CancelledUnpaidEscrows>(`/admin/users/${id}/cancel-unpaid-escrows`, {
    form: withCode({ reason }, totp_code),
    fallback: 'Failed to cancel the unpaid escrows',
  });

export const useCancelUnpaidEscrows = () => useAdminMutation(cancelUnpaidEscrows);
