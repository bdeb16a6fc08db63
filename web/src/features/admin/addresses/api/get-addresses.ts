import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export interface PoolAddress {
  id: string;
  address_string: string;
  network: string;
  status: 'available' | 'assigned' | 'used';
  assigned_to_escrow_id: string | null;
  created_at: string;
}

export const getAddresses = (signal?: AbortSignal) => api<PoolAddress[]>('/admin/addresses', signal ? { signal } : {});

export const addressesQueryOptions = () => queryOptions({ queryKey: [ADMIN_KEY, 'addresses'], queryFn: ({ signal }) => getAddresses(signal) });

/** The whole pool, oldest first. */
export const useAddresses = () => useQuery(addressesQueryOptions());
