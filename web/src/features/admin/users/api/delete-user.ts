import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export const deleteUser = ({ id, totp_code }: { id: string; totp_code: string }) =>
  api<DetailAnswer>(`/admin/users/${id}`, {
    method: 'DELETE',
    ...(totp_code ? { form: withCode({}, totp_code) } : {}),
    fallback: 'Failed to delete user',
  });

export const useDeleteUser = () => useAdminMutation(deleteUser);
