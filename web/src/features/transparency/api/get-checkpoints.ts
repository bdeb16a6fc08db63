import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { checkpointListSchema } from '../../../../../contract/transparency.ts';
import { api } from '../../../api/client.ts';

/** The server's page size for the checkpoint history. */
export const CHECKPOINT_PAGE = 1_000;

/** Checkpoints signed after `after` (a tree size), oldest first. */
export const getCheckpoints = async (after: number, signal?: AbortSignal) =>
  checkpointListSchema.parse(
    await api<unknown>(`/transparency/checkpoints?after=${after}`, { ...(signal ? { signal } : {}) }),
  );

export const checkpointHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['transparency', 'checkpoints'],
    queryFn: ({ pageParam, signal }) => getCheckpoints(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (page) => (page.length === CHECKPOINT_PAGE ? page.at(-1)!.size : undefined),
    staleTime: 30_000,
  });

export const useCheckpointHistory = () => useInfiniteQuery(checkpointHistoryQueryOptions());
