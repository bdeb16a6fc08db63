import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EscrowHistoryEntry } from '../../../../../contract/escrows.ts';
import { api } from '../../../api/client.ts';

export const getEscrowHistory = (id: string, signal?: AbortSignal) =>
  api<EscrowHistoryEntry[]>(`/escrows/${encodeURIComponent(id)}/history`, { ...(signal ? { signal } : {}) });

/** The timeline; keyed by the escrow's last change, so it is read again exactly when the escrow changed. */
export const escrowHistoryQueryOptions = (id: string, updatedAt: string) =>
  queryOptions({
    queryKey: ['escrows', id, 'history', updatedAt],
    queryFn: ({ signal }) => getEscrowHistory(id, signal),
    placeholderData: (previous) => previous,
  });

export const useEscrowHistory = (id: string, updatedAt: string) => useQuery(escrowHistoryQueryOptions(id, updatedAt));
