import type { Kysely } from 'kysely';
import type { Aggregate } from '../../domain/aggregates.ts';
import { type DomainEvent, streamId } from '../../domain/events.ts';
import type { DecideContext } from '../../domain/shared/context.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import type { AppendOptions, EventStore, StreamAppend } from '../event-store/append.ts';
import { type CommandMeta, decideContext, loadThrough, retriedFresh } from './execute.ts';

/** One aggregate's part in a command that touches several streams. */
export interface Part<State, Command> {
  aggregate: Aggregate<State, Command>;
  id: string;
  command: Command;
}

/**
 * A command across several streams (an escrow and the address it takes): every part is decided against the state
 * that was read, and all events are appended in one transaction with an expected version per stream. Any refusal
 * or concurrent change leaves every stream as it was.
 */
export async function executeAcross(
  deps: { db: Kysely<Database>; store: EventStore },
  parts: Part<unknown, unknown>[],
  meta: CommandMeta,
  options: Pick<AppendOptions, 'alsoWrite'> = {},
): Promise<StoredEvent[]> {
  const ids = parts.map((p) => streamId(p.aggregate.streamType, p.id));
  return retriedFresh(deps.store, ids, () => executeAcrossOnce(deps, parts, meta, options));
}

async function executeAcrossOnce(
  deps: { db: Kysely<Database>; store: EventStore },
  parts: Part<unknown, unknown>[],
  meta: CommandMeta,
  options: Pick<AppendOptions, 'alsoWrite'>,
): Promise<StoredEvent[]> {
  const loaded = await Promise.all(parts.map((p) => loadThrough(deps.store, p.aggregate, p.id)));
  const states = loaded.map((l) => l.state);
  const ctx: DecideContext = decideContext(meta);
  const appends: StreamAppend[] = parts.map((part, i) => {
    const events: DomainEvent[] = part.aggregate.decide(part.command, states[i], ctx);
    return {
      streamId: streamId(part.aggregate.streamType, part.id),
      streamType: part.aggregate.streamType,
      expectedVersion: loaded[i]!.version,
      events,
    };
  });
  const rulesVersion = parts.find((p) => p.aggregate.rulesVersion !== undefined)?.aggregate.rulesVersion;
  return deps.store.append(
    appends,
    {
      actor: meta.actor,
      request_id: meta.requestId,
      ...(rulesVersion !== undefined ? { machine_version: rulesVersion } : {}),
    },
    { now: ctx.now, ...options },
  );
}

/** Widens a typed part for `executeAcross`. */
export const part = <State, Command>(p: Part<State, Command>) => p as unknown as Part<unknown, unknown>;
