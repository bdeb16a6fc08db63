import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/** Another live process holds the data directory: the one line to print, naming it. */
export class DataDirLocked extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `The data directory is in use by process ${pid} (lock file ${lockFile}); stop that process first, or set another DATA_DIR`,
    );
    this.name = 'DataDirLocked';
  }
}

export interface DataDirLock {
  release: () => void;
}

/** True when a process with this id runs (one we may not signal still runs; a killed one not yet reaped does not). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: a zombie (state Z) answers signal 0 but holds nothing; its parent has not collected it yet.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return true;
  }
}

function holderOf(lockFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8').split('\n')[0] ?? '', 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data directory for this process: PGlite is one process's database, and a second process writing the same
 * files (a CLI command beside a running server, a second server) would lose what it writes, or worse. The lock is a
 * file holding the holder's pid, created atomically (link(2) fails when it exists). A file left by a process that no longer runs (a crash, a
 * SIGKILL) is taken over; so is one naming this very process (a container restarted with the same pid). Released on
 * `release()` and, failing that, when the process exits.
 */
export function lockDataDir(lockFile: string): DataDirLock {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // Written aside, then linked into place: the lock file never exists without its pid in it.
    const draft = `${lockFile}.${process.pid}`;
    writeFileSync(draft, `${process.pid}\n`, { mode: 0o644 });
    try {
      linkSync(draft, lockFile);
      unlinkSync(draft);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (holderOf(lockFile) === process.pid) unlinkSync(lockFile);
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      unlinkSync(draft);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockFile);
    if (holder !== null && holder !== process.pid && isRunning(holder)) throw new DataDirLocked(lockFile, holder);
    // Stale: remove it and try again. Two processes
    // recovering at once both remove it, only one creates it; the other then finds a live holder.
    try {
      unlinkSync(lockFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new DataDirLocked(lockFile, holderOf(lockFile) ?? 0);
}
