import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;
let every = 500;
let lastAt = 0;
let clock = () => performance.now();

/**
 * A full garbage collection every `intervalMs` while a command runs. V8 lets its heap grow far past what is live
 * before collecting: a replay of half a million events held about 50 MB live but peaked at 328 MB RSS, the rest
 * garbage V8 had not yet returned. Collecting every half second (tens of milliseconds each on a heap this size)
 * keeps the peak near what is live, whatever the command, without a heap limit that a large offline
 * `verify-export` could hit: a replay of a million events on PostgreSQL peaked at 312 MB collecting every two
 * seconds, 203 MB every half second, in the same 33 s. `gc` is exposed at run time, so `npm run cli` needs no node flag.
 * A timer alone is not enough: see `collectGarbageIfDue`.
 */
export function collectGarbageWhileRunning(intervalMs = 500, gc = exposedGc(), now = () => performance.now()): void {
  if (!gc) return;
  every = intervalMs;
  clock = now;
  lastAt = now();
  collect = () => {
    lastAt = now();
    gc();
  };
  setInterval(collectGarbageIfDue, intervalMs).unref();
}

/**
 * Collects when the last collection is `intervalMs` old. Long commands call it with their progress, after each page:
 * PGlite answers a query in microtasks, so a walk over a PGlite store never lets a timer run, and the interval above
 * never fired during a replay (300,763 events: 557 MB peak with the timer alone, 466 MB collecting from the walk).
 */
export function collectGarbageIfDue(): void {
  if (collect && clock() - lastAt >= every) collect();
}

function exposedGc(): (() => void) | undefined {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}
