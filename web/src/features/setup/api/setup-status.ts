import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { setupStatusSchema } from '../../../../../contract/setup.ts';
import { api } from '../../../api/client.ts';

/** The answer of POST /api/setup/status: whether the link still works (issued, unused, no admin yet). */
export type SetupStatus = z.infer<typeof setupStatusSchema>;

export const getSetupStatus = (token: string, signal?: AbortSignal) =>
  api<SetupStatus>('/setup/status', { json: { token }, signal, fallback: 'Could not check this setup link' });

export const setupStatusQuery = (token: string) =>
  queryOptions({
    queryKey: ['setup-status', token],
    queryFn: ({ signal }) => getSetupStatus(token, signal),
    enabled: token !== '',
    staleTime: Infinity,
  });

export const useSetupStatus = (token: string) => useQuery(setupStatusQuery(token));
