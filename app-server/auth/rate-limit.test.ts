import { describe, expect, it } from 'vitest';
import { type Limit, secondsUntilRoom, slidingCount } from './rate-limit.ts';

const signIns: Limit = { bucket: 'login-account', max: 10, windowSeconds: 900 };

describe('sliding window', () => {
  it('counts a burst split across the turn of a window together', () => {
    // 6 failures in the last second of one window, 5 in the first second of the next: 11 in two seconds.
    const counts = { previous: 6, current: 5, elapsed: 1 / 900 };
    expect(slidingCount(counts)).toBeGreaterThanOrEqual(signIns.max);
  });

  it('lets the previous window fade as the current one goes by', () => {
    expect(slidingCount({ previous: 10, current: 0, elapsed: 0 })).toBe(10);
    expect(slidingCount({ previous: 10, current: 0, elapsed: 0.5 })).toBe(5);
    expect(slidingCount({ previous: 10, current: 3, elapsed: 0.9 })).toBeCloseTo(4);
  });

  // Retry-After is when one more attempt fits: the count with the retry in it at most the limit.
  const retryFits = (counts: { previous: number; current: number; elapsed: number }) =>
    slidingCount({ ...counts, current: counts.current + 1 }) <= signIns.max;

  it('says when one more attempt fits while the previous window fades', () => {
    const counts = { previous: 6, current: 5, elapsed: 0 };
    const wait = secondsUntilRoom(counts, signIns);
    expect(wait).toBe(301);
    expect(retryFits({ ...counts, elapsed: wait / 900 })).toBe(true);
    expect(retryFits({ ...counts, elapsed: (wait - 2) / 900 })).toBe(false);
  });

  it('says when one more attempt fits once a full window has to fade', () => {
    // Ten failures in this window, half of it gone: the rest of it, then a tenth of the next.
    const wait = secondsUntilRoom({ previous: 0, current: 10, elapsed: 0.5 }, signIns);
    expect(wait).toBe(541);
    expect(retryFits({ previous: 10, current: 0, elapsed: (wait - 450) / 900 })).toBe(true);
    expect(retryFits({ previous: 10, current: 0, elapsed: (wait - 452) / 900 })).toBe(false);
  });

  it('asks for the least wait when only the current window counts and one more fits', () => {
    expect(secondsUntilRoom({ previous: 0, current: 9, elapsed: 0.5 }, signIns)).toBe(1);
  });

  it('never asks to wait less than a second', () => {
    expect(secondsUntilRoom({ previous: 10, current: 0, elapsed: 0.9999 }, signIns)).toBe(1);
  });
});
