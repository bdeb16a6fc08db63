/** What a log line is written to: pino's `DestinationStream`, plus what the process needs to know about it. */
export interface LogDestination {
  write(line: string): void;
  /** Lines dropped because the reader lagged too far behind or went away. */
  readonly dropped: number;
}

/** The part of `process.stdout` this uses (a test passes its own). */
export interface StdoutLike {
  write(chunk: string): boolean;
  readonly writableLength: number;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** How far (bytes) the reader may lag before lines are dropped: a few thousand lines. */
export const MAX_PENDING_LOG_BYTES = 1 << 20;

/**
 * Standard output that never holds the process up. pino's own destination writes the file descriptor directly and,
 * on exit, flushes synchronously, retrying until the pipe takes the bytes: a reader that stalls and then dies
 * leaves the process spinning there for ever (no answers, SIGTERM ignored, the PGlite lock kept). Node's stdout
 * stream on a pipe queues instead of blocking; here the queue is bounded (lines beyond it are dropped and counted),
 * a broken pipe ends the logging instead of the process, and nothing is flushed synchronously at exit.
 */
export function stdoutDestination(
  stream: StdoutLike = process.stdout,
  maxPendingBytes = MAX_PENDING_LOG_BYTES,
): LogDestination {
  let broken = false;
  let dropped = 0;
  stream.on('error', () => {
    // EPIPE (the reader is gone) or any other write error: logging stops, the service goes on.
    broken = true;
  });
  return {
    write(line: string): void {
      if (broken || stream.writableLength > maxPendingBytes) {
        dropped += 1;
        return;
      }
      try {
        stream.write(line);
      } catch {
        broken = true;
        dropped += 1;
      }
    },
    get dropped() {
      return dropped;
    },
  };
}
