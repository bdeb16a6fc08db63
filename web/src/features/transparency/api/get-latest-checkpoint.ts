import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../api/client.ts';

/**
 * The latest signed checkpoint, the note exactly as published (text/plain, so not through the JSON client). Asked of
 * the server every time: it may be cached for witnesses and mirrors, but a browser checking the log must not be shown
 * its own copy of a checkpoint the server no longer signs.
 */
export async function getLatestCheckpoint(signal?: AbortSignal): Promise<string> {
  let res: Response;
  try {
    res = await fetch('/api/transparency/checkpoint', { cache: 'no-cache', ...(signal ? { signal } : {}) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the service. Check your connection and try again.');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: unknown; code?: unknown } | null;
    const detail =
      typeof body?.detail === 'string' ? body.detail : `Could not read the latest checkpoint (${res.status})`;
    throw new ApiError(res.status, detail, typeof body?.code === 'string' ? body.code : null);
  }
  return res.text();
}

export const latestCheckpointQueryOptions = () =>
  queryOptions({
    queryKey: ['transparency', 'checkpoint'],
    queryFn: ({ signal }) => getLatestCheckpoint(signal),
    staleTime: 10_000,
  });

export const useLatestCheckpoint = () => useQuery(latestCheckpointQueryOptions());
