import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { storedEventSchema } from '../../../../../../contract/audit.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export const EVENTS_PAGE_SIZE = 50;

/** An event of the log with everything needed to check its hash: the API's answer schema. */
export type LedgerEvent = z.infer<typeof storedEventSchema>;

export interface EventFilters {
  stream_id: string;
  stream_type: string;
  type: string;
}

/** One page of the raw log by position: the events after `after`. */
export function getEvents(filters: EventFilters, after: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ limit: String(EVENTS_PAGE_SIZE), after: String(after) });
  for (const [key, value] of Object.entries(filters)) if (value.trim()) query.set(key, value.trim());
  return api<LedgerEvent[]>(`/admin/events?${query}`, signal ? { signal } : {});
}

export const eventsQueryOptions = (filters: EventFilters, after: number) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'events', filters, after],
    queryFn: ({ signal }) => getEvents(filters, after, signal),
    placeholderData: keepPreviousData,
  });

export const useEvents = (filters: EventFilters, after: number) => useQuery(eventsQueryOptions(filters, after));
