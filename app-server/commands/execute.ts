import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Aggregate } from '../../domain/aggregates.ts';
import { streamId } from '../../domain/events.ts';
import type { DecideContext } from '../../domain/shared/context.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import type { AppendOptions, EventStore } from '../event-store/append.ts';
import { readStream } from '../event-store/read.ts';

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

/** Loads one aggregate's state from its stream. */
export async function loadAggregate<State, Command>(
  db: Kysely<Database>,
  aggregate: Aggregate<State, Command>,
  id: string,
): Promise<{ state: State; version: number }> {
  const { version, events } = await readStream(db, streamId(aggregate.streamType, id));
  return { state: events.reduce(aggregate.evolve, aggregate.initial()), version };
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
  options: Pick<AppendOptions, 'alsoWrite'> = {},
): Promise<CommandResult<State>> {
  const { state, version } = await loadAggregate(deps.db, aggregate, id);
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
    { now: ctx.now, ...options },
  );
  return {
    events: stored,
    state: newEvents.reduce(aggregate.evolve, state),
    version: version + newEvents.length,
  };
}
