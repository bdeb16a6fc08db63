import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';
import type { EscrowStatus } from './get-escrow.ts';

/** One event of the escrow's stream with the escrow's state right after it. */
export interface HistoryEntry {
  position: number;
  version: number;
  type: string;
  occurred_at: string;
  actor: string;
  data: Record<string, unknown>;
  status_after: EscrowStatus;
  after: {
    address: string | null;
    payment_marked_at: string | null;
    buyer_confirmed_at: string | null;
    payout_address: string | null;
    refund_address: string | null;
    dispute_id: string | null;
  };
}

export const getEscrowHistory = (id: string, signal?: AbortSignal) => api<HistoryEntry[]>(`/admin/escrows/${id}/history`, signal ? { signal } : {});

export const escrowHistoryQueryOptions = (id: string) =>
  queryOptions({ queryKey: [ADMIN_KEY, 'escrow-history', id], queryFn: ({ signal }) => getEscrowHistory(id, signal) });

export const useEscrowHistory = (id: string) => useQuery(escrowHistoryQueryOptions(id));
