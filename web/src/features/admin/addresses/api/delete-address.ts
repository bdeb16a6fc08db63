import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export const deleteAddress = ({ id, totp_code }: { id: string; totp_code: string }) =>
  api<DetailAnswer>(`/admin/addresses/${id}`, {
    method: 'DELETE',
    ...(totp_code ? { form: withCode({}, totp_code) } : {}),
    fallback: 'Failed to delete address',
  });

export const useDeleteAddress = () => useAdminMutation(deleteAddress);
