import { DomainError } from '../../domain/shared/errors.ts';
import type { Config } from '../config.ts';

/**
 * Bounds the password hashes computed at once in this process (each is ~0.5 s of one core and 128 MiB): the rest
 * wait their turn in order, and one that waited `maxWaitMs` gives up with 503 and Retry-After. A burst of sign-ins
 * (or of wrong change-password calls) then costs everyone a short wait or a quick refusal, never a minute-long queue.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxWaitMs: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.maxConcurrent) this.running++;
    else await this.turn();
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private turn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(go);
        if (at >= 0) this.waiting.splice(at, 1);
        const seconds = Math.max(1, Math.ceil(this.maxWaitMs / 1000));
        reject(
          new DomainError('not_ready', `Too many sign-ins at once; try again in ${seconds} seconds`, {
            'Retry-After': String(seconds),
          }),
        );
      }, this.maxWaitMs);
      this.waiting.push(go);
    });
  }
}

const gates = new WeakMap<Config, HashGate>();

/** The process's gate for this configuration (one per app: tests with their own config get their own). */
export function hashGateFor(config: Config): HashGate {
  let gate = gates.get(config);
  if (!gate) {
    gate = new HashGate(config.PASSWORD_HASH_CONCURRENCY, config.PASSWORD_HASH_QUEUE_MS);
    gates.set(config, gate);
  }
  return gate;
}
