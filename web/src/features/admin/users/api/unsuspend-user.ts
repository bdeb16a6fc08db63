import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export const unsuspendUser = ({ id, totp_code }: { id: string; totp_code: string }) =>
  api<DetailAnswer>(`/admin/users/${id}/unsuspend`, {
    method: 'POST',
    form: withCode({}, totp_code),
    fallback: 'Failed to unsuspend user',
  });

export const useUnsuspendUser = () => useAdminMutation(unsuspendUser);
