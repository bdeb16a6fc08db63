import type { z } from 'zod';
import type { suspendUserSchema } from '../../../../../../contract/admin-user-requests.ts';
import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export const suspendUser = ({
  id,
  reason,
  totp_code,
}: z.input<typeof suspendUserSchema> & { id: string; totp_code: string }) =>
  api<DetailAnswer>(`/admin/users/${id}/suspend`, {
    form: withCode({ reason }, totp_code),
    fallback: 'Failed to suspend user',
  });

export const useSuspendUser = () => useAdminMutation(suspendUser);
