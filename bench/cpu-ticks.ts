/**
 * CPU time of processes from Linux's /proc, in clock ticks: what a process spent on a core (user and system), so a
 * load can be split into what the server, PostgreSQL and the load generator each cost per request.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A process's name and its user + system ticks, from the text of /proc/<pid>/stat. */
export function parseStat(stat: string): { name: string; ticks: number } {
  // The name sits in parentheses and may itself hold spaces and parentheses: the fields follow the last ')'.
  const close = stat.lastIndexOf(')');
  const name = stat.slice(stat.indexOf('(') + 1, close);
  const fields = stat.slice(close + 2).split(' ');
  // After the name: state (field 3 of proc(5)) ... utime (14) and stime (15).
  return { name, ticks: Number(fields[11]) + Number(fields[12]) };
}

/** Ticks of one process, or undefined once it has gone. */
export function processTicks(pid: number): number | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).ticks;
  } catch {
    return undefined;
  }
}

/** Ticks of every process named `name` (PostgreSQL's backends and helpers are all `postgres`), by pid. */
export function ticksOfProcessesNamed(name: string): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (stat.name === name) ticks.set(Number(entry), stat.ticks);
    } catch {
      // gone between the listing and the read
    }
  }
  return ticks;
}

/**
 * Ticks spent between two readings of a set of processes: a process started in between counts whole, one that ended
 * in between is left out (its last ticks cannot be read). Never negative, unlike a difference of two sums.
 */
export function ticksBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let spent = 0;
  for (const [pid, ticks] of after) spent += Math.max(0, ticks - (before.get(pid) ?? 0));
  return spent;
}

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux as built by Debian). */
export function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}
