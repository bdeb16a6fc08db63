import { describe, expect, it } from 'vitest';
import { type Limit, secondsUntilUnder, slidingCount } from './rate-limit.ts';

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

  it('says when the count drops under the limit while the previous window fades', () => {
    const counts = { previous: 6, current: 5, elapsed: 0 };
    const wait = secondsUntilUnder(counts, signIns);
    expect(wait).toBe(151);
    expect(slidingCount({ ...counts, elapsed: wait / 900 })).toBeLessThan(signIns.max);
    expect(slidingCount({ ...counts, elapsed: (wait - 2) / 900 })).toBeGreaterThanOrEqual(signIns.max);
  });

  it('says when the count drops under the limit once a full window has to fade', () => {
    // Ten failures in this window, half of it gone: the rest of it, then a moment of the next.
    const wait = secondsUntilUnder({ previous: 0, current: 10, elapsed: 0.5 }, signIns);
    expect(wait).toBe(451);
    expect(slidingCount({ previous: 10, current: 0, elapsed: (wait - 450) / 900 })).toBeLessThan(signIns.max);
  });

  it('never asks to wait less than a second', () => {
    expect(secondsUntilUnder({ previous: 10, current: 0, elapsed: 0.9999 }, signIns)).toBe(1);
  });
});
