import type { Kysely } from 'kysely';
import { logKeyAggregate } from '../../domain/aggregates.ts';
import { LOG_KEY_ID } from '../../domain/transparency/events.ts';
import { toBase64 } from '../../domain/transparency/merkle.ts';
import { checkpointText, type NoteSigner, signNote, verifierKey } from '../../domain/transparency/note.ts';
import { handle } from '../commands/handle.ts';
import { type Config, publicUrl } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/event-store.ts';
import { withJobLock } from '../jobs/job-lock.ts';
import { type PeriodicJob, startPeriodic } from '../jobs/periodic.ts';
import type { Logger } from '../logger.ts';
import { nodeSigner } from './node-signer.ts';
import { type LogSigningKey, loadLogSigningKey } from './signing-key.ts';
import { extendTree, storedRoot } from './tree.ts';

/** Only one server process signs at a time. */
const CHECKPOINT_LOCK = 74_227;
/** How often every process brings the tree up to the log besides after its own appends (others' appends, the CLI). */
export const TREE_CATCH_UP_EVERY_MS = 5_000;
/** How soon after an append the tree follows it; the appends meanwhile share one catch-up. */
export const TREE_FOLLOWS_WITHIN_MS = 200;

/** TRANSPARENCY_ORIGIN, else the host and path of PUBLIC_URL followed by `/log`. */
export function transparencyOrigin(config: Config): string {
  if (config.TRANSPARENCY_ORIGIN) return config.TRANSPARENCY_ORIGIN;
  const url = new URL(publicUrl(config));
  return `${url.host}${url.pathname.replace(/\/+$/, '')}/log`;
}

export interface CheckpointRow {
  size: number;
  root_hash: string;
  signed_at: string;
  note: string;
  vkey: string;
}

/**
 * The transparency log of one server process: keeps the stored Merkle tree up to the event log (right after this
 * process's appends, and on a short loop for everyone else's), names its key in the log, and signs a checkpoint
 * whenever the log has grown, at most every CHECKPOINT_INTERVAL_S.
 */
export class TransparencyLog {
  readonly origin: string;
  private signer: NoteSigner;
  vkey: string;
  private running: Promise<number> | null = null;
  private queued: Promise<number> | null = null;
  /** A catch-up asked for by appends, due shortly: the appends of the next few hundred milliseconds share it. */
  private due: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: Pick<DatabaseHandle, 'db' | 'backend'>,
    private readonly logger: Logger,
    private readonly settings: {
      origin: string;
      key: LogSigningKey;
      intervalS: number;
      reloadKey?: () => LogSigningKey;
    },
  ) {
    this.origin = settings.origin;
    this.signer = nodeSigner(settings.key.seed);
    this.vkey = verifierKey(this.origin, this.signer.publicKey);
  }

  static fromConfig(config: Config, database: Pick<DatabaseHandle, 'db' | 'backend'>, logger: Logger): TransparencyLog {
    const load = () => loadLogSigningKey(config.LOG_SIGNING_KEY, config.DATA_DIR);
    return new TransparencyLog(database, logger, {
      origin: transparencyOrigin(config),
      key: load(),
      intervalS: config.CHECKPOINT_INTERVAL_S,
      reloadKey: load,
    });
  }

  private get db(): Kysely<Database> {
    return this.database.db;
  }

  /**
   * Brings the tree up to the log now; returns its size. While a run is in progress, callers share one run that
   * starts after it (so each sees the events appended before its call).
   */
  catchUp(): Promise<number> {
    if (!this.running) {
      this.running = extendTree(this.db).finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.catchUp();
      });
    return this.queued;
  }

  /**
   * After an append: the tree follows in the background, TREE_FOLLOWS_WITHIN_MS later, so that a busy log extends it
   * once for many appends rather than once for each (a failure is logged; the loop retries). Nothing waits on it:
   * a checkpoint catches the tree up itself before it signs.
   */
  poke(): void {
    if (this.due) return;
    this.due = setTimeout(() => this.catchUpDue(), TREE_FOLLOWS_WITHIN_MS);
    this.due.unref();
  }

  private catchUpDue(): void {
    if (this.due) clearTimeout(this.due);
    this.due = null;
    this.catchUp().catch((error: unknown) =>
      this.logger.warn({ err: (error as Error).message }, 'transparency tree: catch-up failed; the loop retries'),
    );
  }

  /** Resolves once the tree has followed every append so far (a catch-up due is run now); tests and shutdown wait. */
  async idle(): Promise<void> {
    if (this.due) this.catchUpDue();
    while (this.running || this.queued) await (this.queued ?? this.running)!.catch(() => undefined);
  }

  /**
   * Names this process's key in the log when the log names none yet (LogKeyIntroduced). A log that names another key
   * keeps it (a rotation is the operator's act, `rotate-log-key`): this process then signs nothing and says so.
   */
  async introduceKey(store: EventStore): Promise<void> {
    const { events } = await handle(
      store,
      logKeyAggregate,
      LOG_KEY_ID,
      { type: 'introduce', origin: this.origin, vkey: this.vkey },
      { actor: 'system', requestId: 'transparency-key' },
      { attempts: 3 },
    );
    for (const event of events)
      this.logger.info(
        { vkey: this.vkey, position: event.position },
        `Transparency log key ${this.vkey} introduced in the log`,
      );
    if (!events.length) await this.keyIsCurrent();
  }

  /** A new key for the log: appends LogKeyRotated naming `next` (the caller has stored its private key). */
  async rotateTo(store: EventStore, next: LogSigningKey): Promise<string> {
    const signer = nodeSigner(next.seed);
    const vkey = verifierKey(this.origin, signer.publicKey);
    await handle(
      store,
      logKeyAggregate,
      LOG_KEY_ID,
      { type: 'rotate', origin: this.origin, vkey },
      { actor: 'system', requestId: 'rotate-log-key' },
    );
    this.signer = signer;
    this.vkey = vkey;
    return vkey;
  }

  /**
   * Signs a checkpoint of the whole tree when it has grown since the last one. Signs only with the key the log names
   * now: after a rotation by another process (the CLI) it reloads its key first, and if that still is not the one,
   * it signs nothing and says so.
   */
  async signIfGrown(now: Date = new Date()): Promise<CheckpointRow | null> {
    const outcome = await withJobLock(this.database as DatabaseHandle, CHECKPOINT_LOCK, async () => {
      const size = await this.catchUp();
      const latest = await this.db
        .selectFrom('tlog_checkpoints')
        .select('size')
        .orderBy('size', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (size === 0 || (latest && Number(latest.size) >= size)) return null;
      if (!(await this.keyIsCurrent())) return null;
      const root = await storedRoot(this.db, size);
      const note = signNote(checkpointText({ origin: this.origin, size, root }), this.origin, this.signer);
      const row: CheckpointRow = {
        size,
        root_hash: toBase64(root),
        signed_at: now.toISOString(),
        note,
        vkey: this.vkey,
      };
      await this.db
        .insertInto('tlog_checkpoints')
        .values(row)
        .onConflict((c) => c.column('size').doNothing())
        .execute();
      return row;
    });
    return outcome ?? null;
  }

  private async keyIsCurrent(): Promise<boolean> {
    const named = await this.namedKey();
    if (named === this.vkey) return true;
    const reloaded = this.settings.reloadKey?.();
    if (reloaded) {
      this.signer = nodeSigner(reloaded.seed);
      this.vkey = verifierKey(this.origin, this.signer.publicKey);
      if (named === this.vkey) return true;
    }
    this.logger.error(
      { log_key: named, own_key: this.vkey },
      'Transparency log: the log names another signing key than this server holds; no checkpoint signed (restart after a rotation, or set LOG_SIGNING_KEY to the new key)',
    );
    return false;
  }

  /** The key the log's events name now. */
  async namedKey(): Promise<string | null> {
    const last = await this.db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', `settings:${LOG_KEY_ID}`)
      .orderBy('stream_version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (last?.data as { vkey?: string } | undefined)?.vkey ?? null;
  }

  /** The loops of a running server: the tree every few seconds, a checkpoint every interval (and now). */
  start(): PeriodicJob {
    const first = this.signIfGrown().catch((error: unknown) =>
      this.logger.error({ job: 'transparency-checkpoint', err: (error as Error).message }, 'job run failed'),
    );
    const tree = startPeriodic('transparency-tree', TREE_CATCH_UP_EVERY_MS, () => this.catchUp(), this.logger);
    const checkpoints = startPeriodic(
      'transparency-checkpoint',
      this.settings.intervalS * 1000,
      () => this.signIfGrown(),
      this.logger,
    );
    return {
      stop: async () => {
        await Promise.all([tree.stop(), checkpoints.stop(), first]);
        await this.idle();
      },
    };
  }
}

/** The event store, with the tree following each append that wrote events. */
export function treeKeptStore(store: EventStore, log: TransparencyLog): EventStore {
  return {
    ...store,
    async append(appends, metadata, options) {
      const stored = await store.append(appends, metadata, options);
      if (stored.length) log.poke();
      return stored;
    },
  };
}
