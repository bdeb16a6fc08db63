import { ApiError } from '../api/client.ts';

/**
 * Whether asking again may help: no answer at all, or a gateway or database that is briefly away. A refusal, a
 * missing record and an internal error are answers: asking again only keeps the user waiting for the same one.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.status === 0 || error.status === 502 || error.status === 504) return true;
  // A 503 with `not_ready` is a missing prerequisite (no BTC rate yet), not an outage.
  return error.status === 503 && error.code !== 'not_ready';
}

const MAX_RETRIES = 2;

/** TanStack Query's `retry`: at most twice, and only for an outage. */
export const retryTransient = (failureCount: number, error: unknown) =>
  failureCount < MAX_RETRIES && isTransient(error);

/** TanStack Query's `retryDelay`: 0.4 s then 0.8 s, so a page that cannot load says so within about a second. */
export const retryDelay = (attempt: number) => Math.min(400 * 2 ** attempt, 2000);
