import { randomUUID } from 'node:crypto';
import type { Aggregate } from '../../domain/aggregates.ts';
import { streamId } from '../../domain/events.ts';
import type { DecideContext } from '../../domain/shared/context.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { AppendOptions, EventStore, LoadedAggregate } from '../event-store/event-store.ts';

export interface CommandMeta {
  actor: string;
  requestId: string;
  /** ISO time; defaults to now. */
  now?: string;
  newId?: () => string;
}

/** One aggregate's part in a command: which stream, and what it is told. */
export interface Part<State, Command> {
  aggregate: Aggregate<State, Command>;
  id: string;
  command: Command;
  /**
   * The id was made for this command (a random UUID), so its stream cannot have events yet and is not read; were it
   * there, the append at version 0 would be refused as a conflict.
   */
  newStream?: boolean;
  /**
   * Looks at the stream before the command is decided, on its events as the database holds them (a part with a
   * check is never decided on memory): a throw refuses the command before anything is written (the money guard).
   */
  check?: (loaded: LoadedAggregate<State>) => Promise<void>;
  /**
   * The stream as the caller just read it from the database (`fresh`), decided on at the first try instead of being
   * read again; a later try reads it afresh.
   */
  loaded?: LoadedAggregate<State>;
}

export interface HandleOptions extends Pick<AppendOptions, 'alsoWrite' | 'alsoInsert' | 'returning'> {
  /**
   * Decide again on the stream as it now is when the command loses a version race to another command on the same
   * stream, up to this many tries in all (default 1: the conflict is reported). For commands that must not be
   * starved by a stream that changes often (every sign-in appends to its user's stream).
   */
  attempts?: number;
}

export interface CommandResult<State> {
  events: StoredEvent[];
  /** The state after the command, folded when first asked for. */
  state: State;
  version: number;
}

export function decideContext(meta: CommandMeta): DecideContext {
  return { now: meta.now ?? new Date().toISOString(), newId: meta.newId ?? randomUUID, actor: meta.actor };
}

/**
 * The write path for a command on one stream: rebuild the state from its events, let the decider turn the command
 * into new events (or refuse it), append them at the version that was read. A concurrent change makes the append
 * fail with a conflict rather than act on stale state.
 */
export async function handle<State, Command>(
  store: EventStore,
  aggregate: Aggregate<State, Command>,
  id: string,
  command: Command,
  meta: CommandMeta,
  options: HandleOptions & Pick<Part<State, Command>, 'newStream' | 'check'> = {},
): Promise<CommandResult<State>> {
  const { newStream, check, ...rest } = options;
  const { events, loaded } = await handleParts(store, [part({ aggregate, id, command, newStream, check })], meta, rest);
  const { state: before, version } = loaded[0] as LoadedAggregate<State>;
  let after: { state: State } | undefined;
  return {
    events,
    get state() {
      return (after ??= { state: events.reduce(aggregate.evolve, before) }).state;
    },
    version: version + events.length,
  };
}

/**
 * A command across several streams (an escrow and the address it takes): every part is decided against the state
 * that was read, and all events are appended in one transaction with an expected version per stream. Any refusal
 * or concurrent change leaves every stream as it was.
 */
export async function handleAll(
  store: EventStore,
  parts: Part<unknown, unknown>[],
  meta: CommandMeta,
  options: HandleOptions = {},
): Promise<StoredEvent[]> {
  return (await handleParts(store, parts, meta, options)).events;
}

/** Widens a typed part for `handleAll`. */
export const part = <State, Command>(p: Part<State, Command>) => p as unknown as Part<unknown, unknown>;

async function handleParts(
  store: EventStore,
  parts: Part<unknown, unknown>[],
  meta: CommandMeta,
  options: HandleOptions,
) {
  const { attempts = 1, ...rest } = options;
  // Every try's append carries when the command first tried: one that lost a race goes ahead of newer appends.
  const append = { ...rest, since: performance.now() };
  for (let attempt = 1; ; attempt++) {
    try {
      return await decideAndAppend(
        store,
        attempt === 1 ? parts : parts.map(({ loaded: _read, ...p }) => p),
        meta,
        append,
        false,
      );
    } catch (error) {
      if (attempt >= attempts || !(error instanceof DomainError) || error.code !== 'conflict') throw error;
    }
  }
}

/**
 * Loads every part, decides, appends. When a state came from the store's memory and the command fails (refused,
 * or a read model did not expect the event), that memory may be stale (another process appended to the stream), so
 * it reads the streams from the database and runs once more: a failure is then always about the log as it is.
 * Nothing was written by the failed run (an append is all or nothing).
 */
async function decideAndAppend(
  store: EventStore,
  parts: Part<unknown, unknown>[],
  meta: CommandMeta,
  options: Pick<AppendOptions, 'alsoWrite' | 'alsoInsert' | 'returning' | 'since'>,
  fresh: boolean,
): Promise<{ events: StoredEvent[]; loaded: LoadedAggregate<unknown>[] }> {
  const loaded = await Promise.all(parts.map((p) => load(store, p, fresh)));
  try {
    for (const [i, p] of parts.entries()) await p.check?.(loaded[i]!);
    const ctx = decideContext(meta);
    const appends = parts.map((p, i) => ({
      streamId: streamId(p.aggregate.streamType, p.id),
      streamType: p.aggregate.streamType,
      expectedVersion: loaded[i]!.version,
      events: p.aggregate.decide(p.command, loaded[i]!.state, ctx),
    }));
    const rulesVersion = parts.find((p) => p.aggregate.rulesVersion !== undefined)?.aggregate.rulesVersion;
    const events = await store.append(
      appends,
      {
        actor: meta.actor,
        request_id: meta.requestId,
        ...(rulesVersion !== undefined ? { machine_version: rulesVersion } : {}),
      },
      { now: ctx.now, ...options },
    );
    return { events, loaded };
  } catch (error) {
    if (fresh || !loaded.some((l) => l.fromMemory)) throw error;
    return decideAndAppend(store, parts, meta, options, true);
  }
}

/** A part's stream as it is decided on: new (nothing to read), given by the caller, or read (fresh for a check). */
function load(
  store: EventStore,
  p: Part<unknown, unknown>,
  fresh: boolean,
): LoadedAggregate<unknown> | Promise<LoadedAggregate<unknown>> {
  if (p.newStream) return { state: p.aggregate.initial(), version: 0, fromMemory: false, events: [] };
  if (p.loaded && !fresh) return p.loaded;
  return store.aggregate(p.aggregate, p.id, { fresh: fresh || p.check !== undefined });
}
