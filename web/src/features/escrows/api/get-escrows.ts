import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import type { Escrow } from './types.ts';

export const getEscrows = (signal?: AbortSignal) => api<Escrow[]>('/escrows', { ...(signal ? { signal } : {}) });

/** 'My Escrows': every escrow the user created or is a party to by a verified e-mail, newest first. */
export const escrowsQueryOptions = () =>
  queryOptions({ queryKey: ['escrows'], queryFn: ({ signal }) => getEscrows(signal) });

export const useEscrows = () => useQuery(escrowsQueryOptions());
