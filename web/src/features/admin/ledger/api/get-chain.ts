import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { chainStatusSchema } from '../../../../../../contract/audit.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** The chain head and the server's check of it: the API's answer schema. */
export type ChainReport = z.infer<typeof chainStatusSchema>;

/** The chain head and the server's own check of every hash and link (a full check each time it is asked). */
export const getChain = (signal?: AbortSignal) => api<ChainReport>('/admin/chain', signal ? { signal } : {});

export const chainQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'chain'], queryFn: ({ signal }) => getChain(signal) });

export const useChain = () => useQuery(chainQueryOptions());
