/** One queued piece of work and how to answer whoever queued it. */
export interface Queued<Job, Result> {
  job: Job;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
  /** When the work was first asked for (`performance.now()`): the oldest waiting goes first. */
  since: number;
}

/**
 * A queue in which one leader at a time takes everything waiting (up to `maxBatch`, oldest first) and runs it as one
 * batch; whatever arrives meanwhile waits for the next batch. A lone job is a batch of one, so a single caller waits
 * for nothing extra; under concurrency, the batches grow to what arrived during the last one. `run` answers every
 * job of its batch (each with its own result or error); a job it leaves unanswered is refused.
 *
 * Oldest first, not first come: a job may be a second try of work that lost a race in an earlier batch (an append
 * refused because its stream moved on). Were it queued behind what arrived meanwhile, a stream of new work could make
 * it lose every time.
 */
export class GroupCommit<Job, Result> {
  private readonly waiting: (Queued<Job, Result> & { answered: boolean })[] = [];
  private leading = false;

  constructor(
    private readonly run: (batch: Queued<Job, Result>[]) => Promise<void>,
    private readonly maxBatch = 64,
  ) {}

  /** Queues `job`; `since` is when the work it belongs to was first asked for (default: now). */
  submit(job: Job, since = performance.now()): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const queued = {
        job,
        since,
        answered: false,
        resolve: (result: Result) => {
          queued.answered = true;
          resolve(result);
        },
        reject: (error: unknown) => {
          queued.answered = true;
          reject(error);
        },
      };
      this.waiting.push(queued);
      if (!this.leading) void this.lead();
    });
  }

  private async lead(): Promise<void> {
    this.leading = true;
    try {
      while (this.waiting.length) {
        this.waiting.sort((a, b) => a.since - b.since); // stable: the same age keeps its order of arrival
        const batch = this.waiting.splice(0, this.maxBatch);
        const failed = await this.run(batch).then(
          () => undefined,
          (error: unknown) => ({ error }),
        );
        const unanswered = batch.filter((q) => !q.answered);
        if (unanswered.length === 0) continue;
        // Made only when a job was left: an Error takes a stack trace (2% of a lone append's CPU when made every time).
        const error = failed ? failed.error : new Error('the batch left this append unanswered');
        for (const q of unanswered) q.reject(error);
      }
    } finally {
      this.leading = false;
    }
  }
}
