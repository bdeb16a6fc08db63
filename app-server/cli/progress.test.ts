import { describe, expect, it } from 'vitest';
import { formatDuration, startProgress } from './progress.ts';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 100, write: (text: string) => void writes.push(text) } };
}

describe('progress', () => {
  it('writes a plain line at most every interval when not on a terminal, then the total', () => {
    let now = 0;
    const { writes, stream } = fakeStream(false);
    const progress = startProgress('verify-chain', {
      unit: 'events',
      total: 1_000_000,
      stream,
      intervalMs: 10_000,
      now: () => now,
    });
    now = 5_000;
    progress.update(100_000);
    expect(writes).toEqual([]);
    now = 10_000;
    progress.update(200_000);
    now = 12_000;
    progress.update(240_000);
    expect(writes).toEqual(['verify-chain: 200,000 of 1,000,000 events (20%), 20,000 events/s, about 40 s left\n']);
    now = 50_000;
    progress.update(1_000_000);
    progress.finish('chain ok');
    expect(writes.at(-1)).toBe('verify-chain: 1,000,000 events in 50 s, 20,000 events/s; chain ok\n');
  });

  it('draws a bar with the rate and the time left in place on a terminal', () => {
    let now = 0;
    const { writes, stream } = fakeStream(true);
    const progress = startProgress('backup', { unit: 'bytes', total: 100 * 1_048_576, stream, now: () => now });
    now = 2_000;
    progress.update(50 * 1_048_576);
    const bar = writes.at(-1)!;
    expect(bar.startsWith('\rbackup [')).toBe(true);
    expect(bar).toContain('50% 50.0 MB/100.0 MB 25.0 MB/s ETA 2.0 s');
    expect(bar.match(/#/g)).toHaveLength(bar.split('[')[1]!.split(']')[0]!.length / 2);
    now = 2_050;
    progress.update(60 * 1_048_576);
    expect(writes.at(-1)).toBe(bar); // redrawn at most every 100 ms
    progress.finish();
    expect(writes.at(-1)).toMatch(/^backup: 60.0 MB in 2.0 s, 29.3 MB\/s\n$/);
    expect(writes.at(-2)!.endsWith('\n')).toBe(true); // the bar's line is closed before the total
  });

  it('shows the count and rate without a total, and never a percentage', () => {
    let now = 0;
    const { writes, stream } = fakeStream(false);
    const progress = startProgress('backup', { unit: 'bytes', stream, intervalMs: 1_000, now: () => now });
    now = 1_000;
    progress.add(3 * 1_048_576);
    expect(writes).toEqual(['backup: 3.0 MB, 3.0 MB/s\n']);
  });

  it('formats durations for people', () => {
    expect(formatDuration(0.42)).toBe('0.4 s');
    expect(formatDuration(75)).toBe('1 min 15 s');
    expect(formatDuration(3_780)).toBe('1 h 3 min');
  });
});
