import { expect, it, vi } from 'vitest';
import { collectGarbageWhileRunning } from './heap.ts';
import { startProgress } from './progress.ts';

it('collects garbage from the progress of a walk that never lets a timer run, once per interval', async () => {
  const gc = vi.fn();
  let clock = 0;
  collectGarbageWhileRunning(500, gc, () => clock);
  const progress = startProgress('replay', { unit: 'events', stream: { write: () => true }, now: () => clock });
  // Like a walk over a PGlite store: every page's answer comes in a microtask, so no timer runs in between.
  for (let page = 1; page <= 30; page++) {
    await Promise.resolve();
    clock += 100;
    progress.add(5_000);
  }
  expect(gc).toHaveBeenCalledTimes(6); // 3 s of pages, every 500 ms
  progress.update(150_000);
  expect(gc).toHaveBeenCalledTimes(6); // not again within the interval
});
