import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export interface Dispute {
  id: string;
  escrow_id: string;
  reason: string;
  opened_by_side: 'buyer' | 'seller';
  opened_by: string;
  opened_at: string;
  status: 'open' | 'resolved';
  outcome: string | null;
  resolution: 'release' | 'refund' | 'split' | null;
  seller_percent: number | null;
  resolved_by: string | null;
  resolved_at: string | null;
}

export const getDisputes = (signal?: AbortSignal) => api<Dispute[]>('/admin/disputes', signal ? { signal } : {});

export const disputesQueryOptions = () => queryOptions({ queryKey: [ADMIN_KEY, 'disputes'], queryFn: ({ signal }) => getDisputes(signal) });

/** Open first, newest first (the server's order). */
export const useDisputes = () => useQuery(disputesQueryOptions());
