import type { z } from 'zod';
import type { assignAddressSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { AdminEscrow } from './get-escrow.ts';

/** Give a waiting escrow a chosen available pool address. */
export const assignAddress = ({
  escrowId,
  address_id,
  totp_code,
}: z.input<typeof assignAddressSchema> & { escrowId: string; totp_code: string }) =>
  api<AdminEscrow>(`/admin/escrows/${escrowId}/assign-address`, {
    form: withCode({ address_id }, totp_code),
    fallback: 'Failed to assign address',
  });

export const useAssignAddress = () => useAdminMutation(assignAddress);
