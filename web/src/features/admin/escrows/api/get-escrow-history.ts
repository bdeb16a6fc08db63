import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { adminEscrowHistoryEntrySchema } from '../../../../../../contract/escrows.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** One event of the escrow's stream with the escrow's state right after it: the API's answer schema. */
export type HistoryEntry = z.infer<typeof adminEscrowHistoryEntrySchema>;

export const getEscrowHistory = (id: string, signal?: AbortSignal) =>
  api<HistoryEntry[]>(`/admin/escrows/${id}/history`, signal ? { signal } : {});

export const escrowHistoryQueryOptions = (id: string) =>
  queryOptions({ queryKey: [ADMIN_KEY, 'escrow-history', id], queryFn: ({ signal }) => getEscrowHistory(id, signal) });

export const useEscrowHistory = (id: string) => useQuery(escrowHistoryQueryOptions(id));
