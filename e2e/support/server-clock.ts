import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverInfo } from './server-info.ts';

/** Debian's libfaketime (package `faketime`): preloaded into the suite's server, it reads its offset from a file. */
export const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

/** The file the server's libfaketime reads its offset from on every clock call. */
export const clockFileIn = (dataDir: string) => join(dataDir, 'faketime.rc');

/**
 * The environment that lets the journeys move the server's wall clock without waiting: libfaketime preloaded, the
 * offset read afresh from `clockFile` on each call (FAKETIME_NO_CACHE), timers left on the real monotonic clock so
 * the server's loops keep their pace. Empty when libfaketime is not installed (journeys that move time then skip).
 */
export function serverClockEnv(clockFile: string): Record<string, string> {
  if (!existsSync(LIBFAKETIME)) return {};
  writeFileSync(clockFile, '+0\n');
  return {
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME_TIMESTAMP_FILE: clockFile,
    FAKETIME_NO_CACHE: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}

/** Whether the suite's server runs on a clock the journeys can move. */
export const serverClockMovable = () => existsSync(LIBFAKETIME) && existsSync(clockFileIn(serverInfo().dataDir));

/**
 * Moves the server's clock to `days` (fractions allowed) after the real time; 0 puts it back. The server's jobs see
 * the new time on their next run (the inspection clock runs every 5 s).
 */
export function moveServerClock(days: number): void {
  const seconds = Math.round(days * 86_400);
  writeFileSync(clockFileIn(serverInfo().dataDir), `${seconds >= 0 ? '+' : ''}${seconds}\n`);
}
