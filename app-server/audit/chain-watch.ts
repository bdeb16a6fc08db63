import type { Kysely } from 'kysely';
import { type ChainBreak, chainHash, envelopeOf } from '../../domain/chain.ts';
import type { Database } from '../db/schema.ts';
import { readLog } from '../event-store/read.ts';
import { mailAdminsOnce } from '../mail/admins.ts';
import { type ChainReport, verifyChain } from '../event-store/verify-chain.ts';
import { type PeriodicJob, startPeriodic } from '../jobs/periodic.ts';
import type { Logger } from '../logger.ts';
import { CheckpointWatch } from '../transparency/checkpoint-watch.ts';

/** How often the running server checks the events appended since its last check. */
export const CHAIN_CHECK_EVERY_MS = 30_000;
/** How long after start a server begins watching (its first check walks the whole log). */
export const CHAIN_FIRST_CHECK_AFTER_MS = 60_000;
/**
 * How often it re-verifies the whole log from the first event (and once at start): a change in the middle of the log
 * is found within ten minutes plus the walk itself (which rests as long as it works).
 */
export const CHAIN_FULL_CHECK_EVERY_MS = 10 * 60_000;
/**
 * Events hashed between two reads: each page holds the event loop while it is hashed (some 35 to 50 ms for 1,000 events
 * here), so requests served meanwhile wait at most that long.
 */
const PAGE_SIZE = 1_000;
const CHAIN_NOTICE = 'event_log_tampered';

export type ChainStatus = 'unverified' | 'ok' | 'broken';

export interface ChainWatchState {
  status: ChainStatus;
  /** The last position known to link back to the first event (before the break, if any); null before the first check. */
  verifiedUpTo: number | null;
  /** The first bad position found, kept until a full check finds the log whole again. */
  broken: ChainBreak | null;
  lastCheckAt: string | null;
  lastFullCheckAt: string | null;
}

/**
 * The hash chain as the running server last checked it. A check is incremental: it re-reads the last verified
 * event and recomputes its hash (so changing, removing or moving that event is caught), then verifies only the
 * events appended since, linked to it. A full check starts again from the first event, catching a change anywhere:
 * it runs first (nothing is remembered yet), every `fullEveryMs`, and on demand (`verifyFully`, which the admin
 * chain route uses). Checks never overlap.
 *
 * A break is logged once, as one error line naming the position, and kept: readiness reports it and later
 * periodic checks do nothing until a full check (on demand, or after a restart) finds the log whole again.
 */
export class ChainWatch {
  /** The last event verified: the next incremental check re-reads it and continues after it. */
  private verifiedUpTo: { position: number; hash: string } | null = null;
  private broken: ChainBreak | null = null;
  private lastCheckAt: Date | null = null;
  private lastFullCheckAt: Date | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private alerting: Promise<void> = Promise.resolve();
  /** The log against the transparency checkpoints this server signed (a rewrite with recomputed hashes fails it). */
  private readonly checkpoints: CheckpointWatch;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly options: { fullEveryMs?: number; now?: () => Date } = {},
  ) {
    this.checkpoints = new CheckpointWatch(db);
  }

  state(): ChainWatchState {
    const upTo = this.verifiedUpTo ? this.verifiedUpTo.position : null;
    return {
      status: this.broken ? 'broken' : this.verifiedUpTo ? 'ok' : 'unverified',
      verifiedUpTo: this.broken ? Math.min(upTo ?? 0, this.broken.position - 1) : upTo,
      broken: this.broken,
      lastCheckAt: this.lastCheckAt?.toISOString() ?? null,
      lastFullCheckAt: this.lastFullCheckAt?.toISOString() ?? null,
    };
  }

  /**
   * The periodic check: incremental, or full when none was done yet or the last full one is `fullEveryMs` old.
   * Does nothing while a break is kept.
   */
  check(): Promise<ChainWatchState> {
    return this.serialised(async () => {
      if (this.broken) return;
      const now = this.now();
      const fullDue =
        !this.verifiedUpTo ||
        !this.lastFullCheckAt ||
        now.getTime() - this.lastFullCheckAt.getTime() >= (this.options.fullEveryMs ?? CHAIN_FULL_CHECK_EVERY_MS);
      if (fullDue) {
        await this.full(now, true);
        return;
      }
      const anchor = this.verifiedUpTo!;
      const moved = await this.recheck(anchor);
      if (moved) return this.fail(moved, now);
      const report = await verifyChain(this.db, { after: anchor, pageSize: PAGE_SIZE });
      const unsigned = report.ok ? await this.checkpoints.incremental() : null;
      this.settle(unsigned ? { ...report, ok: false, firstBreak: unsigned } : report, now);
    }).then(() => this.state());
  }

  /** Verifies the whole log now (after any check in progress) and records the outcome, break or not. */
  verifyFully(): Promise<ChainReport> {
    return this.serialised(() => this.full(this.now()));
  }

  /**
   * A break found outside the watch (the money guard's check of one escrow's records): kept and reported like one
   * the watch found, until a full check finds the log whole again. The finder mails the admins itself.
   */
  markBroken(found: ChainBreak): void {
    this.fail(found, this.now(), false);
  }

  /** Forgets everything (tests empty the database under a live app). */
  forget(): void {
    this.checkpoints.forget();
    this.verifiedUpTo = null;
    this.broken = null;
    this.lastCheckAt = null;
    this.lastFullCheckAt = null;
  }

  /** Checks once now, in the background, then every `intervalMs`; `stop` waits for a check in progress. */
  start(intervalMs = CHAIN_CHECK_EVERY_MS): PeriodicJob {
    const first = this.check().catch((error: unknown) =>
      this.logger.error({ job: 'chain-watch', err: (error as Error).message }, 'job run failed'),
    );
    const job = startPeriodic('chain-watch', intervalMs, () => this.check(), this.logger);
    return {
      async stop() {
        await job.stop();
        await first;
      },
    };
  }

  private async full(now: Date, background = false): Promise<ChainReport> {
    const started = Date.now();
    let report = await verifyChain(this.db, {
      pageSize: PAGE_SIZE,
      story: true,
      ...(background ? { restRatio: 1 } : {}),
    });
    // A log that verifies must still hold the event verified before: one rewritten with every hash recomputed (and
    // the chain head with them) verifies from the first event, but not against what this process remembers.
    const anchor = this.verifiedUpTo;
    if (report.ok && anchor && anchor.position <= report.head.position) {
      const moved = await this.recheck(anchor);
      if (moved) report = { ...report, ok: false, firstBreak: moved };
    }
    // ...and must still have the root of every transparency checkpoint signed before.
    if (report.ok) {
      const unsigned = await this.checkpoints.full(report.head.position);
      if (unsigned) report = { ...report, ok: false, firstBreak: unsigned };
    }
    this.lastFullCheckAt = now;
    const wasBroken = this.broken;
    this.settle(report, now);
    if (report.ok) {
      const fields = { events: report.events, head: report.head.position, ms: Date.now() - started };
      if (wasBroken) {
        this.logger.warn(
          fields,
          `Event log verifies again up to event ${report.head.position}; the earlier break is cleared`,
        );
        await this.db.deleteFrom('notices').where('name', '=', CHAIN_NOTICE).execute();
      } else
        this.logger.info(fields, `Event log verified: ${report.events} events, up to event ${report.head.position}`);
    }
    return report;
  }

  private settle(report: ChainReport, now: Date): void {
    if (!report.ok) {
      // What linked correctly up to the break, whether the check began at the first event or after the last check.
      if (report.head.position < report.firstBreak!.position) this.verifiedUpTo = report.head;
      return this.fail(report.firstBreak!, now);
    }
    this.verifiedUpTo = report.head;
    this.broken = null;
    this.lastCheckAt = now;
  }

  /** The remembered event must still be there, at its position, with the content it was verified with. */
  private async recheck(anchor: { position: number; hash: string }): Promise<ChainBreak | null> {
    if (anchor.position === 0) return null;
    const [event] = await readLog(this.db, { after: anchor.position - 1, upTo: anchor.position, limit: 1 });
    if (!event)
      return { position: anchor.position, reason: 'the event is gone (it was removed or moved after it was verified)' };
    const recomputed = chainHash(event.prev_hash, envelopeOf(event));
    if (recomputed !== anchor.hash) {
      const reason =
        recomputed === event.hash
          ? 'hash differs from the one verified before (the event and its hash were rewritten)'
          : 'hash does not match the event content (the event was changed after it was verified)';
      return { position: anchor.position, reason };
    }
    if (event.hash !== anchor.hash)
      return { position: anchor.position, reason: 'the stored hash differs from the one verified before' };
    return null;
  }

  private fail(found: ChainBreak, now: Date, mail = true): void {
    this.lastCheckAt = now;
    // The same position found again (by the other kind of check, say) is the same incident: no second line.
    const known = this.broken?.position === found.position;
    this.broken = found;
    if (known) return;
    this.logger.error(
      { chain_position: found.position, reason: found.reason, verified_up_to: this.state().verifiedUpTo },
      `Event log tampered: event ${found.position}: ${found.reason}`,
    );
    if (!mail) return;
    this.alerting = this.alerting
      .then(() => this.mailAdmins(found))
      .catch((error: unknown) =>
        this.logger.error({ err: (error as Error).message }, 'could not queue the tampering alert'),
      );
  }

  /** Resolves once the alert for the last break found is queued (tests wait on it). */
  alerted(): Promise<void> {
    return this.alerting;
  }

  /** The admins hear of a break once (across every server process: the notice row stays until the log verifies again). */
  private async mailAdmins(found: ChainBreak): Promise<void> {
    await mailAdminsOnce(this.db, CHAIN_NOTICE, {
      subject: 'Event log tampered: money actions are stopped',
      lines: [
        `The server's check of the event log's hash chain failed at event ${found.position}: ${found.reason}.`,
        'Until the log verifies again, every release, refund, payment verification and dispute resolution answers 503.',
        'Run verify-chain, compare with the last exported chain head, and restore the changed rows from a backup or an export.',
      ],
    });
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}
