import { describe, expect, it } from 'vitest';
import { pauseEnds } from './second-factor.ts';

describe('pauseEnds: the time a lockout mail names', () => {
  const now = new Date('2026-11-26T12:00:45.000Z');

  it('is the moment a sixth code fits again, rounded up to the minute', () => {
    // Five codes halfway through the window: the count decays to four a fifth of a window after it turns, 10.5 min.
    expect(pauseEnds({ previous: 0, current: 5, elapsed: 0.5 }, now).toISOString()).toBe('2026-11-26T12:12:00.000Z');
  });

  it('is 18 minutes away, not 15, for a burst at the start of a fixed window', () => {
    expect(pauseEnds({ previous: 0, current: 5, elapsed: 0 }, now).toISOString()).toBe('2026-11-26T12:19:00.000Z');
  });

  it('counts the previous window’s codes while they decay', () => {
    // 4 + 2·(1 − 0.25) = 5.5 now; 4 + 2·(1 − e) ≤ 4 only when the window turns, 0.75 of it from now.
    expect(pauseEnds({ previous: 2, current: 4, elapsed: 0.25 }, now).toISOString()).toBe('2026-11-26T12:13:00.000Z');
  });
});
