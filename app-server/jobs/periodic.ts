import type { Logger } from '../logger.ts';

export interface PeriodicJob {
  stop: () => Promise<void>;
}

/**
 * Runs `work` every `intervalMs`, never two runs at once; a failed run is logged and the next one goes ahead.
 * `stop` waits for a run in progress to finish.
 */
export function startPeriodic(
  name: string,
  intervalMs: number,
  work: () => Promise<unknown>,
  logger: Logger,
): PeriodicJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = work()
      .then(() => undefined)
      .catch((error: unknown) => logger.error({ job: name, err: (error as Error).message }, 'job run failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
