import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { isFinal } from '../model/escrow-progress.ts';
import type { EscrowDetail } from './types.ts';

/** How often an open escrow's page asks again, so a change made by the other party or an admin shows by itself. */
export const FOLLOW_INTERVAL_MS = 4000;

export const getEscrow = (id: string, signal?: AbortSignal) =>
  api<EscrowDetail>(`/escrows/${encodeURIComponent(id)}`, { ...(signal ? { signal } : {}) });

export const escrowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['escrows', id],
    queryFn: ({ signal }) => getEscrow(id, signal),
    // Followed while someone else may move it; a closed escrow no longer changes.
    refetchInterval: (query) => (query.state.data && isFinal(query.state.data.status) ? false : FOLLOW_INTERVAL_MS),
  });

export const useEscrow = (id: string) => useQuery(escrowQueryOptions(id));
