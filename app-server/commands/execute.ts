import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Aggregate } from '../../domain/aggregates.ts';
import { streamId } from '../../domain/events.ts';
import type { DecideContext } from '../../domain/shared/context.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import type { AppendOptions, EventStore } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';
import { foldAppended, foldStream } from './folded-states.ts';

export interface CommandMeta {
  actor: string;
  requestId: string;
  /** ISO time; defaults to now. */
  now?: string;
  newId?: () => string;
}

export interface CommandResult<State> {
  events: StoredEvent[];
  state: State;
  version: number;
}

/** Loads one aggregate's state from its stream in the database. */
export async function loadAggregate<State, Command>(
  db: Kysely<Database>,
  aggregate: Aggregate<State, Command>,
  id: string,
): Promise<{ state: State; version: number }> {
  const { version, events } = await readStream(db, streamId(aggregate.streamType, id));
  return { state: events.reduce(aggregate.evolve, aggregate.initial()), version };
}

/**
 * Runs `once`; if a stream it reads was in the process's memory and the command fails (refused, or a read model
 * did not expect the event), that memory may be stale (another process appended to the stream), so it reads the
 * streams from the database and runs once more. A failure is then always about the log as it is. Nothing was
 * written by the failed run (an append is all or nothing).
 */
export async function retriedFresh<T>(store: EventStore, streamIds: readonly string[], once: () => Promise<T>): Promise<T> {
  const remembered = streamIds.some((id) => store.remembers(id));
  try {
    return await once();
  } catch (error) {
    if (!remembered) throw error;
    for (const id of streamIds) store.forgetStream(id);
    return once();
  }
}

/**
 * Runs a command again, decided on the stream as it now is, when it loses a version race to another command on the
 * same stream; after `attempts` tries the conflict is reported. For commands that must not be starved by a stream
 * that changes often (every sign-in appends to its user's stream).
 */
export async function retryingConflicts<T>(once: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof DomainError) || error.code !== 'conflict') throw error;
    }
  }
}

/** Loads one aggregate's state through the store (from memory when it was used lately). */
export async function loadThrough<State, Command>(store: EventStore, aggregate: Aggregate<State, Command>, id: string) {
  const stream = streamId(aggregate.streamType, id);
  const { version, events } = await store.readStream(stream);
  return { state: foldStream(aggregate, stream, events), version };
}

export interface ExecuteOptions extends Pick<AppendOptions, 'alsoWrite' | 'alsoInsert'> {
  /**
   * The id was made for this command (a random UUID), so its stream cannot have events yet and is not read; were it
   * there, the append at version 0 would be refused as a conflict.
   */
  newStream?: boolean;
}

export function decideContext(meta: CommandMeta): DecideContext {
  return { now: meta.now ?? new Date().toISOString(), newId: meta.newId ?? randomUUID, actor: meta.actor };
}

/**
 * The write path for a command on one stream: rebuild the state from its events, let the decider turn the command
 * into new events (or refuse it), append them at the version that was read. A concurrent change makes the append
 * fail with a conflict rather than act on stale state.
 */
export async function executeCommand<State, Command>(
  deps: { db: Kysely<Database>; store: EventStore },
  aggregate: Aggregate<State, Command>,
  id: string,
  command: Command,
  meta: CommandMeta,
  options: ExecuteOptions = {},
): Promise<CommandResult<State>> {
  return retriedFresh(deps.store, [streamId(aggregate.streamType, id)], () => executeOnce(deps, aggregate, id, command, meta, options));
}

async function executeOnce<State, Command>(
  deps: { db: Kysely<Database>; store: EventStore },
  aggregate: Aggregate<State, Command>,
  id: string,
  command: Command,
  meta: CommandMeta,
  options: ExecuteOptions,
): Promise<CommandResult<State>> {
  const { state, version } = options.newStream ? { state: aggregate.initial(), version: 0 } : await loadThrough(deps.store, aggregate, id);
  const ctx = decideContext(meta);
  const newEvents = aggregate.decide(command, state, ctx);
  const stored = await deps.store.append(
    [
      {
        streamId: streamId(aggregate.streamType, id),
        streamType: aggregate.streamType,
        expectedVersion: version,
        events: newEvents,
      },
    ],
    {
      actor: meta.actor,
      request_id: meta.requestId,
      ...(aggregate.rulesVersion !== undefined ? { machine_version: aggregate.rulesVersion } : {}),
    },
    { now: ctx.now, ...(options.alsoWrite ? { alsoWrite: options.alsoWrite } : {}), ...(options.alsoInsert ? { alsoInsert: options.alsoInsert } : {}) },
  );
  const after = foldAppended(aggregate, streamId(aggregate.streamType, id), state, stored);
  return {
    events: stored,
    get state() {
      return after();
    },
    version: version + newEvents.length,
  };
}
