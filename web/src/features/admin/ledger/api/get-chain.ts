import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export interface ChainReport {
  head: { position: number; hash: string };
  ok: boolean;
  events: number;
  first_break: { position: number; reason?: string } | null;
  verified_up_to: number;
  broken: { position: number; reason?: string } | null;
  last_check_at: string | null;
  last_full_check_at: string | null;
}

/** The chain head and the server's own check of every hash and link (a full check each time it is asked). */
export const getChain = (signal?: AbortSignal) => api<ChainReport>('/admin/chain', signal ? { signal } : {});

export const chainQueryOptions = () => queryOptions({ queryKey: [ADMIN_KEY, 'chain'], queryFn: ({ signal }) => getChain(signal) });

export const useChain = () => useQuery(chainQueryOptions());
