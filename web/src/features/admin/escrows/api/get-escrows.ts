import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { adminEscrowPageSchema } from '../../../../../../contract/escrows.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';
import type { EscrowStatus } from './get-escrow.ts';

export const ESCROWS_PAGE_SIZE = 25;

export interface EscrowsQuery {
  status: EscrowStatus | '';
  search: string;
  /** Only escrows ready to release: receipt confirmed and the seller's payout address set and not held (7.4). */
  ready: boolean;
  /** Zero-based. */
  page: number;
}

/** A page of every escrow, and how many there are: the API's answer schema. */
export type EscrowsPage = z.infer<typeof adminEscrowPageSchema>;

export function getEscrows({ status, search, ready, page }: EscrowsQuery, signal?: AbortSignal) {
  const query = new URLSearchParams({ limit: String(ESCROWS_PAGE_SIZE), offset: String(page * ESCROWS_PAGE_SIZE) });
  if (status) query.set('status', status);
  if (search.trim()) query.set('search', search.trim());
  if (ready) query.set('ready', 'true');
  return api<EscrowsPage>(`/admin/escrows?${query}`, signal ? { signal } : {});
}

export const escrowsQueryOptions = (query: EscrowsQuery) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'escrows', query],
    queryFn: ({ signal }) => getEscrows(query, signal),
    placeholderData: keepPreviousData,
  });

/** One page of every escrow, filtered and searched by the server. */
export const useEscrows = (query: EscrowsQuery) => useQuery(escrowsQueryOptions(query));

/** How many escrows are ready to release: the Escrows tab's count (the total of a one-row page of them). */
export const useReadyToReleaseCount = () =>
  useQuery({
    ...escrowsQueryOptions({ status: '', search: '', ready: true, page: 0 }),
    select: (answer) => answer.total,
  });
