import { describe, expect, it } from 'vitest';
import { parseStat, processTicks, ticksBetween } from './cpu-ticks.ts';

describe('CPU ticks from /proc', () => {
  it('reads user and system ticks after a name that holds spaces and parentheses', () => {
    const stat = '4242 (postgres: (x) y) S 1 4242 4242 0 -1 4194560 91 0 0 0 120 35 0 0 20 0 1 0 4711 1000 10';
    expect(parseStat(stat)).toEqual({ name: 'postgres: (x) y', ticks: 155 });
  });

  it('reads this process', () => {
    expect(processTicks(process.pid)).toBeGreaterThanOrEqual(0);
    expect(processTicks(2 ** 22 + 1)).toBeUndefined();
  });

  it('counts a process that started whole and leaves out one that ended, never going below zero', () => {
    const before = new Map([
      [10, 500],
      [11, 900],
    ]);
    const after = new Map([
      [10, 530],
      [12, 7],
    ]);
    // 11 ended (its 900 ticks are not subtracted), 12 started: 30 + 7.
    expect(ticksBetween(before, after)).toBe(37);
  });
});
