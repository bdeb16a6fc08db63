import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '../../../../../../contract/reports.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export interface ReportRange {
  from: string;
  to: string;
}

/** `?from=&to=` for the set dates (an empty one is left out: unbounded). */
export const rangeQuery = (range: ReportRange) => {
  const params = new URLSearchParams(Object.entries(range).filter(([, v]) => v) as [string, string][]).toString();
  return params ? `?${params}` : '';
};

/** GET /api/admin/reports/overview: the figures verify-export prints for the range, and the pool now. */
export const overviewQueryOptions = (range: ReportRange) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'overview', range],
    queryFn: ({ signal }) =>
      api<Overview>(`/admin/reports/overview${rangeQuery(range)}`, { signal, fallback: 'Failed to load the overview' }),
    placeholderData: keepPreviousData,
  });

export const useOverview = (range: ReportRange) => useQuery(overviewQueryOptions(range));
