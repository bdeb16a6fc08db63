import { describe, expect, it } from 'vitest';
import { displayUtc } from './display-time.ts';

describe('displayUtc', () => {
  it('reads an ISO time as day, month, year and 24-hour UTC time', () => {
    expect(displayUtc('2026-11-24T15:49:03.120Z')).toBe('24 Nov 2026, 15:49 UTC');
    expect(displayUtc('2026-01-02T00:05:00+02:00')).toBe('1 Jan 2026, 22:05 UTC');
    expect(displayUtc(new Date(Date.UTC(2026, 6, 4, 9, 0)))).toBe('4 Jul 2026, 09:00 UTC');
  });
});
