import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection every `intervalMs` while a command runs. V8 lets its heap grow far past what is live
 * before collecting: a replay of half a million events held about 50 MB live but peaked at 328 MB RSS, the rest
 * garbage V8 had not yet returned. Collecting every half second (tens of milliseconds each on a heap this size)
 * keeps the peak near what is live, whatever the command, without a heap limit that a large offline
 * `verify-export` could hit: a replay of a million events on PostgreSQL peaked at 312 MB collecting every two
 * seconds, 203 MB every half second, in the same 33 s. `gc` is exposed at run time, so `npm run cli` needs no node flag.
 */
export function collectGarbageWhileRunning(intervalMs = 500): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  if (typeof gc !== 'function') return;
  setInterval(gc, intervalMs).unref();
}
