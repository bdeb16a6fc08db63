import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BitcoinNetwork } from '../../../../../../domain/bitcoin-address.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** The network the server accepts addresses for (GET /api/site), so the browser checks a pasted list the same way. */
export const getNetwork = async (signal?: AbortSignal) =>
  (await api<{ bitcoin_network?: BitcoinNetwork }>('/site', signal ? { signal } : {})).bitcoin_network ?? null;

export const networkQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'network'], queryFn: ({ signal }) => getNetwork(signal), staleTime: Infinity });

export const useNetwork = () => useQuery(networkQueryOptions());
