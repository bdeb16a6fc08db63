import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type ChainEnvelope, chainHash } from '../../domain/chain.ts';
import { parseEvent, SCHEMA_VERSION, streamId as streamIdOf } from '../../domain/events.ts';
import { conflict } from '../../domain/shared/errors.ts';
import type { EventMetadata, StoredEvent } from '../../domain/stored-event.ts';
import { applyEvents } from '../../projections/apply.ts';
import { BufferedRowStore } from '../../projections/buffered-row-store.ts';
import { normaliseRow } from '../../projections/normalise-row.ts';
import type { DynamicDb } from '../../projections/dynamic-db.ts';
import type { Projection, Row, TableSpec } from '../../projections/projection.ts';
import { RowCache } from '../caching/row-cache.ts';
import { StreamCache } from '../caching/stream-cache.ts';
import type { Database } from '../db/schema.ts';
import { type AppendInsert, type Returning, writeAppend } from './append-statement.ts';
import { type AppendScope, appendScope } from './append-scope.ts';
import { type ChainHead, lockChainHead, readChainHead } from './chain-head.ts';
import { GroupCommit, type Queued } from './group-commit.ts';
import { readStream as readStreamFromDb } from './read.ts';
import type { AfterAppend, AppendOptions, EventStore, RowAfter, StreamAppend } from './event-store.ts';

/** An append waiting for its turn: validated, its time and everything that goes with it settled. */
interface PendingAppend {
  appends: StreamAppend[];
  metadata: EventMetadata;
  occurredAt: string;
  options: AppendOptions;
}

/** What became of one append of a batch: written (answered after the commit) or refused. */
type Outcome =
  | { written: { stored: StoredEvent[]; to: ChainHead }; refused?: undefined }
  | { written?: undefined; refused: unknown };

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Read models carry unique indexes as a last guard; a violation means the command would duplicate something. */
const duplicateDetail: Record<string, string> = {
  addresses_address_string_key: 'This address is already in the pool',
  users_username_unique: 'That username is taken',
  users_email_unique: 'That e-mail address is already registered',
};

function asConflict(error: unknown): unknown {
  if (!isUniqueViolation(error)) return error;
  const constraint = (error as { constraint?: string }).constraint ?? '';
  return conflict(duplicateDetail[constraint] ?? 'That would duplicate an existing record');
}

/** Chains the events to `head`: positions after it, each hash over the previous one. */
function chainEvents(
  appends: readonly StreamAppend[],
  head: ChainHead,
  metadata: EventMetadata,
  occurredAt: string,
): { stored: StoredEvent[]; to: ChainHead } {
  let { position, hash: prevHash } = head;
  const stored: StoredEvent[] = [];
  for (const a of appends) {
    a.events.forEach((event, i) => {
      position += 1;
      const envelope: ChainEnvelope = {
        position,
        event_id: randomUUID(),
        stream_id: a.streamId,
        stream_type: a.streamType,
        stream_version: a.expectedVersion + i + 1,
        type: event.type,
        schema_version: SCHEMA_VERSION,
        data: event.data,
        metadata,
        occurred_at: occurredAt,
      };
      const hash = chainHash(prevHash, envelope);
      stored.push({ ...envelope, prev_hash: prevHash, hash } as StoredEvent);
      prevHash = hash;
    });
  }
  return { stored, to: { position, hash: prevHash } };
}

/**
 * Appends to one or more streams, all or nothing: checks every stream's version, chains the events to the head
 * (gapless positions in commit order), inserts them, runs every projection on them, then `alsoWrite`.
 *
 * The appends of one process queue (they would queue on the chain head anyway), so each knows the head the one
 * before it left; those that queue while one commits are written together next (group commit, see `together`).
 * A lone append chains to that head, runs the projections reading rows without a lock, and writes everything in one
 * statement that applies only if the head has not moved (any append moves it, so every row read is still current):
 * autocommitted, so one round trip holds the log, or, with something to `alsoWrite`, in a transaction that runs it
 * next. When the statement finds the head moved (another process wrote), the append is done again under the
 * chain-head row lock, taken first in a transaction (which keeps every writer of the log, and so of the read models,
 * out until commit), reading and writing the same way under it. A batch without an `alsoWrite` goes the same way,
 * in one statement at the head this process left; one with an `alsoWrite`, or one whose statement found the head or a
 * stream moved, is written under the lock. Either way each append's writes are one statement.
 */
export function createEventStore(
  db: Kysely<Database>,
  projections: readonly Projection[],
  effects: readonly AfterAppend[] = [],
): EventStore {
  const tableSpecs = projections.flatMap((p) => p.tables);
  const recent = new RowCache();
  const streams = new StreamCache();
  /** Whether it committed is unknown: what this process remembers is read afresh. */
  const forgetAll = () => {
    recent.forgetAll();
    streams.clear();
  };
  /** Chains, projects and writes against `head` through `executor`; false when the head was no longer there. */
  async function attempt(
    executor: Kysely<Database>,
    appends: readonly StreamAppend[],
    head: ChainHead,
    metadata: EventMetadata,
    occurredAt: string,
    options: AppendOptions,
  ) {
    const { stored, to } = chainEvents(appends, head, metadata, occurredAt);
    recent.at(head);
    const rows = new BufferedRowStore(tableSpecs, (spec, key) =>
      recent.row(spec, key, () => readRow(executor, spec, key)),
    );
    await applyEvents(rows, projections, stored);
    const streams = appends.map((a) => ({
      streamId: a.streamId,
      streamType: a.streamType,
      expectedVersion: a.expectedVersion,
      version: a.expectedVersion + a.events.length,
    }));
    const inserts = (await options.alsoInsert?.(stored, (table, key) => rows.get(table, key))) ?? [];
    const changes = rows.changes();
    const asked = options.returning;
    const written = await writeAppend(executor, {
      from: head,
      to,
      streams,
      events: stored,
      changes,
      inserts,
      ...(asked && { returning: [asked] }),
    });
    if (!written.moved) return null;
    asked?.take(written.returned[0]!.get(asked.id));
    return { stored, from: head, to, changes };
  }

  /**
   * The append chained to the head this process last saw, or null when the head had moved (or a remembered row was
   * behind the log): the caller then does it again under the lock. The statement's update of the head holds the
   * head's row lock until commit, so `alsoWrite` runs under it as it would in `underLock`.
   */
  async function optimistic({ appends, metadata, occurredAt, options }: PendingAppend) {
    const head = recent.lastHead() ?? (await readChainHead(db));
    const { alsoWrite } = options;
    if (!alsoWrite) return attempt(db, appends, head, metadata, occurredAt, options).catch(() => null);
    return db
      .transaction()
      .execute(async (trx) => {
        const written = await attempt(trx, appends, head, metadata, occurredAt, options).catch(() => null);
        if (!written) throw HEAD_MOVED;
        await alsoWrite(trx, written.stored);
        return written;
      })
      .catch((error: unknown) => {
        if (error === HEAD_MOVED) return null;
        forgetAll();
        throw error;
      });
  }

  /**
   * One append written under the lock, in `trx` at `head`: its statement, then its `alsoWrite`. Refused (a stream
   * no longer at its expected version) without writing anything; what it wrote is remembered before commit, still
   * under the lock, so the next writer of this process finds the head and rows it will lock at.
   */
  async function appendLocked(
    trx: Transaction<Database>,
    head: ChainHead,
    { appends, metadata, occurredAt, options }: PendingAppend,
  ) {
    const written = await attempt(trx, appends, head, metadata, occurredAt, options);
    // Under the lock the head cannot have moved: a refusal means a stream is no longer at its expected version.
    if (!written) return { refused: staleStream(appends, await streamVersions(trx, appends)) };
    if (options.alsoWrite) await options.alsoWrite(trx, written.stored);
    recent.committed(written.from, written.to, written.changes);
    streams.committed(written.stored);
    return { written };
  }

  async function underLock(pending: PendingAppend) {
    return db
      .transaction()
      .execute(async (trx) => {
        const outcome = await appendLocked(trx, await lockChainHead(trx), pending);
        if (outcome.refused) throw outcome.refused;
        return outcome.written;
      })
      .catch((error: unknown) => {
        forgetAll(); // it may have followed an append that did not commit
        throw error;
      });
  }

  /** One append on its own: in one autocommitted statement when the head is where this process left it. */
  async function alone(pending: PendingAppend): Promise<StoredEvent[]> {
    try {
      const written = await optimistic(pending);
      if (written) {
        recent.committed(written.from, written.to, written.changes);
        streams.committed(written.stored);
        return written.stored;
      }
      return (await underLock(pending)).stored;
    } catch (error) {
      throw asConflict(error);
    }
  }

  /**
   * Appends without an `alsoWrite`, one after the other from `head`, written in ONE statement: each is checked
   * against `versions` (the streams as the batch found them, advanced by what it accepted), a stale one is refused and
   * writes nothing, the others are chained and projected in order into one set of row changes. The statement
   * re-checks every stream at the version the batch found it at, and the head. Under the lock (`versions` read
   * there) it always applies. With `presumed`, outside any transaction, a stream the versions do not know is taken
   * to be at the version its first append expects: the statement then applies only if every such guess and the
   * head held, and null says it did not (nothing written).
   */
  async function appendMerged(
    executor: Kysely<Database>,
    head: ChainHead,
    jobs: readonly PendingAppend[],
    versions: Map<string, number>,
    presumed = false,
  ) {
    recent.at(head);
    const rows = new BufferedRowStore(tableSpecs, (spec, key) =>
      recent.row(spec, key, () => readRow(executor, spec, key)),
    );
    const outcomes: Outcome[] = [];
    const events: StoredEvent[] = [];
    const inserts: AppendInsert[] = [];
    const touched = new Map<
      string,
      { streamId: string; streamType: string; expectedVersion: number; version: number }
    >();
    let at = head;
    for (const job of jobs) {
      if (presumed)
        for (const a of job.appends) if (!versions.has(a.streamId)) versions.set(a.streamId, a.expectedVersion);
      if (job.appends.some((a) => (versions.get(a.streamId) ?? 0) !== a.expectedVersion)) {
        outcomes.push({ refused: staleStream(job.appends, versions) });
        continue;
      }
      const { stored, to } = chainEvents(job.appends, at, job.metadata, job.occurredAt);
      await applyEvents(rows, projections, stored);
      for (const a of job.appends) {
        const version = a.expectedVersion + a.events.length;
        const first = touched.get(a.streamId)?.expectedVersion ?? a.expectedVersion;
        touched.set(a.streamId, { streamId: a.streamId, streamType: a.streamType, expectedVersion: first, version });
        versions.set(a.streamId, version);
      }
      events.push(...stored);
      inserts.push(...((await job.options.alsoInsert?.(stored, (table, key) => rows.get(table, key))) ?? []));
      outcomes.push({ written: { stored, to } });
      at = to;
    }
    if (events.length === 0) return { outcomes, head };
    const changes = rows.changes();
    const returning = returnedBy(jobs, outcomes);
    const write = { from: head, to: at, streams: [...touched.values()], events, changes, inserts, returning };
    const written = await writeAppend(executor, write);
    if (!written.moved) {
      if (presumed) return null;
      throw new Error('a stream changed under the chain-head lock'); // cannot happen: the batch is then done alone
    }
    jobs.forEach((job, i) => {
      const asked = job.options.returning;
      if (asked && outcomes[i]!.written) asked.take(written.returned[returning.findIndex(same(asked))]!.get(asked.id));
    });
    recent.committed(head, at, changes);
    streams.committed(events);
    return { outcomes, head: at };
  }

  /**
   * Appends that queued while the last batch committed. Without an `alsoWrite` among them they first go in one
   * statement at the last head (`mergedAtLastHead`); else, or when that found something moved, in ONE transaction
   * under the chain-head lock and so one commit (one WAL flush) for all, in the order they came, each chained to
   * the head the one before it left and checked against its own expected versions (one refused writes nothing; the
   * next goes on). Those without an `alsoWrite` are written together in one statement (`appendMerged`); one with an
   * `alsoWrite` gets its own statement with its writes right after it, so they read the read models as its own
   * events left them. Answered only after the commit. Should anything fail the transaction itself (a unique index of
   * a read model, an `alsoWrite` or a projection that throws), it is rolled back and every append of the batch is
   * done alone, so that failure reaches only the append it belongs to.
   */
  async function together(batch: Queued<PendingAppend, StoredEvent[]>[]): Promise<void> {
    const optimistic = batch.some((q) => q.job.options.alsoWrite) ? null : await mergedAtLastHead(batch);
    if (optimistic) {
      answer(batch, optimistic);
      return;
    }
    const outcomes = await db
      .transaction()
      .execute(async (trx) => {
        let head = await lockChainHead(trx);
        const versions = await streamVersions(
          trx,
          batch.flatMap((q) => q.job.appends),
        );
        const done: Outcome[] = [];
        for (let i = 0; i < batch.length;) {
          const job = batch[i]!.job;
          if (job.options.alsoWrite) {
            const outcome = await appendLocked(trx, head, job);
            if (outcome.written) {
              head = outcome.written.to;
              for (const a of job.appends) versions.set(a.streamId, a.expectedVersion + a.events.length);
            }
            done.push(outcome);
            i += 1;
            continue;
          }
          let end = i;
          while (end < batch.length && !batch[end]!.job.options.alsoWrite) end += 1;
          const merged = (await appendMerged(
            trx,
            head,
            batch.slice(i, end).map((q) => q.job),
            versions,
          ))!;
          head = merged.head;
          done.push(...merged.outcomes);
          i = end;
        }
        return done;
      })
      .catch(() => {
        forgetAll();
        return null;
      });
    if (!outcomes) {
      for (const q of batch) await alone(q.job).then(q.resolve, q.reject);
      return;
    }
    answer(batch, outcomes);
  }

  /**
   * A batch with nothing to `alsoWrite`, as a lone append goes (`optimistic`): chained to the head this process last
   * saw, each append checked against the versions its command read, in ONE autocommitted statement: one round trip
   * instead of the five of a transaction under the lock. Null when the head or a stream was not where they were read
   * (another process wrote, or a command read a stream since moved), or the statement failed: nothing was written,
   * and the batch is done under the lock, which refuses each stale append alone.
   */
  async function mergedAtLastHead(batch: Queued<PendingAppend, StoredEvent[]>[]): Promise<Outcome[] | null> {
    try {
      const head = recent.lastHead() ?? (await readChainHead(db));
      const merged = await appendMerged(
        db,
        head,
        batch.map((q) => q.job),
        new Map(),
        true,
      );
      return merged?.outcomes ?? null;
    } catch {
      forgetAll(); // whether it committed is unknown: what this process remembers is read afresh
      return null;
    }
  }

  /** The appends of one process: a lone one alone, several that queued meanwhile as one batch. */
  const commits = new GroupCommit<PendingAppend, StoredEvent[]>(async (batch) => {
    if (batch.length === 1) await alone(batch[0]!.job).then(batch[0]!.resolve, batch[0]!.reject);
    else await together(batch);
  });

  return {
    async append(appends, metadata, given = {}) {
      if (appends.length === 0 || appends.every((a) => a.events.length === 0)) return [];
      const options = withEffects(given, effects, appends, appendScope.getStore());
      const occurredAt = options.now ?? new Date().toISOString();
      const validated = appends.map((a) => ({
        ...a,
        events: a.events.map((e) => parseEvent(e.type, e.data)),
      }));
      return commits.submit({ appends: validated, metadata, occurredAt, options }, options.since);
    },

    read: (streamId) => readStreamFromDb(db, streamId),

    async aggregate(aggregate, id, { fresh = false } = {}) {
      const stream = streamIdOf(aggregate.streamType, id);
      if (fresh) streams.forget(stream);
      const known = streams.events(stream);
      const events = known ?? (await readStreamFromDb(db, stream)).events;
      if (!known && events.length) streams.remember(stream, events);
      return {
        state: streams.fold(aggregate, stream, events),
        version: events.at(-1)?.stream_version ?? 0,
        fromMemory: known !== undefined,
        events,
      };
    },
  };
}

/**
 * The append's options with what goes with its events in their transaction, in this order: the command's own
 * `alsoWrite` (secrets, evidence files), the registered effects its events call for, the request's scope (the
 * idempotency record); and in its statement: the command's own `alsoInsert`, then the effects' inserts.
 */
function withEffects(
  options: AppendOptions,
  effects: readonly AfterAppend[],
  appends: readonly StreamAppend[],
  scope: AppendScope | undefined,
): AppendOptions {
  const types = new Set(appends.flatMap((a) => a.events.map((e) => e.type)));
  const called = effects.filter((e) => e.handles.some((t) => types.has(t)));
  const writes = [options.alsoWrite, ...called.flatMap((e) => ('run' in e ? [e.run] : [])), scope?.alsoWrite].filter(
    (w) => w !== undefined,
  );
  const inserts = [options.alsoInsert, ...called.flatMap((e) => ('insert' in e ? [e.insert] : []))].filter(
    (i) => i !== undefined,
  );
  return {
    ...options,
    ...(writes.length > 0 && {
      alsoWrite: async (trx: Transaction<Database>, stored: StoredEvent[]) => {
        for (const write of writes) await write(trx, stored);
      },
    }),
    ...(inserts.length === 1 && { alsoInsert: inserts[0] }),
    ...(inserts.length > 1 && {
      alsoInsert: async (stored: StoredEvent[], rowAfter: RowAfter) => {
        const all: AppendInsert[] = [];
        for (const insert of inserts) all.push(...(await insert(stored, rowAfter)));
        return all;
      },
    }),
  };
}

/** Answers each queued append with its outcome: its stored events, or its refusal. */
function answer(batch: readonly Queued<PendingAppend, StoredEvent[]>[], outcomes: readonly Outcome[]): void {
  batch.forEach((q, i) => {
    const outcome = outcomes[i]!;
    if (outcome.written) q.resolve(outcome.written.stored);
    else q.reject(outcome.refused);
  });
}

/** Thrown inside the optimistic transaction to roll it back when the head had moved. */
const HEAD_MOVED = new Error('the chain head moved');

async function readRow(
  db: Kysely<Database>,
  spec: TableSpec,
  key: readonly (string | number)[],
): Promise<Row | undefined> {
  let query = (db as unknown as DynamicDb).selectFrom(spec.name).selectAll();
  spec.key.forEach((column, i) => {
    query = query.where(column, '=', key[i]);
  });
  const raw = await query.executeTakeFirst();
  return raw ? normaliseRow(raw) : undefined;
}

async function streamVersions(
  trx: Transaction<Database>,
  appends: readonly StreamAppend[],
): Promise<Map<string, number>> {
  const found = await trx
    .selectFrom('streams')
    .select(['stream_id', 'version'])
    .where(
      'stream_id',
      'in',
      appends.map((a) => a.streamId),
    )
    .execute();
  return new Map(found.map((s) => [s.stream_id, Number(s.version)]));
}

function staleStream(appends: readonly StreamAppend[], versions: Map<string, number>) {
  const a = appends.find((x) => (versions.get(x.streamId) ?? 0) !== x.expectedVersion) ?? appends[0]!;
  return conflict(`${a.streamType} ${a.streamId.split(':')[1]} was changed by another request; reload and try again`);
}

const same = (a: Returning) => (b: Returning) => a.table === b.table && a.sql === b.sql;

/** The values the written appends of a batch ask for, each once (a batch of creations asks for one). */
function returnedBy(jobs: readonly PendingAppend[], outcomes: readonly Outcome[]): Returning[] {
  const asked: Returning[] = [];
  jobs.forEach((job, i) => {
    const r = job.options.returning;
    if (r && outcomes[i]!.written && !asked.some(same(r))) asked.push({ table: r.table, sql: r.sql });
  });
  return asked;
}
