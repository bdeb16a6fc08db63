import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { healthSchema } from '../../../../../../contract/site.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../admin-mutation.ts';

/** The server's version and its own check of the hash chain: the API's answer schema. */
export type Health = z.infer<typeof healthSchema>;

export const getHealth = (signal?: AbortSignal) => api<Health>('/health', signal ? { signal } : {});

/** Asked again every 30 s: the server's chain watch checks new events as often. */
export const healthQueryOptions = () =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'health'],
    queryFn: ({ signal }) => getHealth(signal),
    refetchInterval: 30_000,
  });

export const useHealth = () => useQuery(healthQueryOptions());
