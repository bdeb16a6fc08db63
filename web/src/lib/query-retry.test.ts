import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { isTransient, retryDelay, retryTransient } from './query-retry.ts';

describe('retrying a failed query', () => {
  it('asks again only when the service did not answer or was briefly away', () => {
    expect(isTransient(new ApiError(0, 'Cannot reach the service'))).toBe(true);
    expect(isTransient(new ApiError(502, 'Bad gateway'))).toBe(true);
    expect(isTransient(new ApiError(503, 'The database is unavailable', 'unavailable'))).toBe(true);
    expect(isTransient(new TypeError('Failed to fetch'))).toBe(true);
  });

  it('takes an internal error, a refusal or a missing prerequisite as the answer', () => {
    expect(isTransient(new ApiError(500, 'Internal error', 'internal'))).toBe(false);
    expect(isTransient(new ApiError(404, 'Escrow not found', 'not_found'))).toBe(false);
    expect(isTransient(new ApiError(403, 'Forbidden', 'forbidden'))).toBe(false);
    expect(isTransient(new ApiError(503, 'No BTC rate is set yet', 'not_ready'))).toBe(false);
  });

  it('gives up after two retries that together take about a second', () => {
    const outage = new ApiError(0, 'Cannot reach the service');
    expect([0, 1, 2].map((count) => retryTransient(count, outage))).toEqual([true, true, false]);
    expect(retryDelay(0) + retryDelay(1)).toBeLessThanOrEqual(1200);
  });
});
