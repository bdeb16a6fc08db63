import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkLogConsistency } from '../model/log-consistency.ts';
import { localSeenCheckpoints } from '../model/seen-checkpoint.ts';
import { getConsistencyProof } from './get-consistency-proof.ts';
import { getLatestCheckpoint } from './get-latest-checkpoint.ts';
import { getLogKey } from './get-log-key.ts';

/** This browser's check of the log against the last checkpoint it saw: once per visit of a page that shows it. */
export const logConsistencyQueryOptions = () =>
  queryOptions({
    queryKey: ['transparency', 'consistency'],
    queryFn: ({ signal }) =>
      checkLogConsistency({
        latest: async () => {
          const [note, key] = await Promise.all([getLatestCheckpoint(signal), getLogKey(signal)]);
          return { note, ...key };
        },
        consistency: (from, to) => getConsistencyProof(from, to, signal),
        seen: localSeenCheckpoints(),
        now: () => new Date(),
      }),
    staleTime: 60_000,
    retry: 1,
  });

export const useLogConsistency = () => useQuery(logConsistencyQueryOptions());
