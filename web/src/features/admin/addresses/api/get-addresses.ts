import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { poolAddressSchema } from '../../../../../../contract/addresses.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** A payment address of the pool: the API's answer schema. */
export type PoolAddress = z.infer<typeof poolAddressSchema>;

export const getAddresses = (signal?: AbortSignal) => api<PoolAddress[]>('/admin/addresses', signal ? { signal } : {});

export const addressesQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'addresses'], queryFn: ({ signal }) => getAddresses(signal) });

/** The whole pool, oldest first. */
export const useAddresses = () => useQuery(addressesQueryOptions());
