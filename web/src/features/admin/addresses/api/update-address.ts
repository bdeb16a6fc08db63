import type { z } from 'zod';
import type { poolAddressFormSchema } from '../../../../../../contract/address-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { PoolAddress } from './get-addresses.ts';

export const updateAddress = ({
  id,
  address_string,
  totp_code,
}: z.input<typeof poolAddressFormSchema> & { id: string; totp_code: string }) =>
  api<PoolAddress>(`/admin/addresses/${id}`, {
    method: 'PUT',
    form: withCode({ address_string }, totp_code),
    fallback: 'Failed to update address',
  });

export const useUpdateAddress = () => useAdminMutation(updateAddress);
