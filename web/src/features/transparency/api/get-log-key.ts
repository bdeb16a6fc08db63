import { queryOptions, useQuery } from '@tanstack/react-query';
import { transparencyKeySchema } from '../../../../../contract/transparency.ts';
import { api } from '../../../api/client.ts';

/** The log's origin and the verifier key that signs its checkpoints now. */
export const getLogKey = async (signal?: AbortSignal) =>
  transparencyKeySchema.parse(
    await api<unknown>('/transparency/key', { ...(signal ? { signal } : {}), fallback: 'Could not read the log key.' }),
  );

export const logKeyQueryOptions = () =>
  queryOptions({ queryKey: ['transparency', 'key'], queryFn: ({ signal }) => getLogKey(signal), staleTime: 60_000 });

export const useLogKey = () => useQuery(logKeyQueryOptions());
