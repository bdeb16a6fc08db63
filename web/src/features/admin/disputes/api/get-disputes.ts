import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { adminDisputeSchema } from '../../../../../../contract/escrows.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** A dispute with the accounts involved: the API's answer schema. */
export type Dispute = z.infer<typeof adminDisputeSchema>;

export const getDisputes = (signal?: AbortSignal) => api<Dispute[]>('/admin/disputes', signal ? { signal } : {});

export const disputesQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'disputes'], queryFn: ({ signal }) => getDisputes(signal) });

/** Open first, newest first (the server's order). */
export const useDisputes = () => useQuery(disputesQueryOptions());
