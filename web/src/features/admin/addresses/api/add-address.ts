import type { z } from 'zod';
import type { poolAddressFormSchema } from '../../../../../../contract/address-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { PoolAddress } from './get-addresses.ts';

export const addAddress = ({ address_string, totp_code }: z.input<typeof poolAddressFormSchema> & { totp_code: string }) =>
  api<PoolAddress>('/admin/addresses', { form: withCode({ address_string }, totp_code), fallback: 'Failed to add address' });

export const useAddAddress = () => useAdminMutation(addAddress);
