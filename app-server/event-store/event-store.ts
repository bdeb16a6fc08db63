import type { Transaction } from 'kysely';
import type { Aggregate } from '../../domain/aggregates.ts';
import type { DomainEvent, EventType, StreamType } from '../../domain/events.ts';
import type { EventMetadata, StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import type { Row } from '../../projections/projection.ts';
import type { TableName } from '../../projections/tables.ts';
import type { AppendInsert, Returning } from './append-statement.ts';

/** New events for one stream, accepted only if the stream is still at `expectedVersion` (0: a new stream). */
export interface StreamAppend {
  streamId: string;
  streamType: StreamType;
  expectedVersion: number;
  events: DomainEvent[];
}

export interface AppendOptions {
  /** Time of the append (ISO); defaults to now. */
  now?: string;
  /**
   * When the command first tried to append (`performance.now()`; default: now). Appends waiting for the same batch
   * go oldest first, so a command decided again after losing a version race goes ahead of newer ones on its stream:
   * someone who keeps signing in cannot keep an admin's suspension out.
   */
  since?: number;
  /** Runs inside the same transaction after the events and projections are written: secrets, outbox rows. */
  alsoWrite?: (trx: Transaction<Database>, stored: StoredEvent[]) => Promise<void>;
  /**
   * Rows that follow from the events (queued mail), written in the append's own statement: all or nothing with the
   * events, and without the transaction `alsoWrite` needs (three round trips fewer).
   */
  alsoInsert?: (stored: StoredEvent[], rowAfter: RowAfter) => AppendInsert[] | Promise<AppendInsert[]>;
  /**
   * A value the append's own statement computes over the row `id` of `table` it writes (an answer's JSON: no read
   * after), handed to `take` once the append is written; undefined when the append did not write that row. Other
   * tables are seen as they were before the append (see Returning in append-statement.ts).
   */
  returning?: Returning & { id: string; take: (value: string | undefined) => void };
}

/** A read model's row as the append's events left it (the projections have run on them), or undefined. */
export type RowAfter = (table: TableName, key: readonly (string | number)[]) => Promise<Row | undefined>;

/** One aggregate's state as its stream's events make it, and the stream's version. */
export interface LoadedAggregate<State> {
  state: State;
  version: number;
  /** The events came from this process's memory: another process may have appended since (see `aggregate`). */
  fromMemory: boolean;
  /** The stream's events the state was folded from, version 1 first (read only: the store keeps them). */
  events: readonly StoredEvent[];
}

/**
 * What follows certain events inside the transaction that appends them (the read models already updated there):
 * the mail they call for, the low-pool alert. Registered with the store like projections, so no command has to
 * remember it; an append with none of `handles` does not run it (nor open a transaction for it).
 */
export type AfterAppend = {
  name: string;
  handles: readonly EventType[];
} & (
  | { run(trx: Transaction<Database>, stored: StoredEvent[]): Promise<void> }
  /** Or rows written in the append's own statement, as `alsoInsert` (no transaction, and a batch stays one statement). */
  | { insert: NonNullable<AppendOptions['alsoInsert']> }
);

/** The log: read a stream, rebuild an aggregate from it, append. */
export interface EventStore {
  /** One stream's events, from the database. */
  read(streamId: string): Promise<{ version: number; events: StoredEvent[] }>;
  /**
   * One aggregate's state, from memory when this process appended or read its stream lately. That may be stale if
   * another process appended to the stream (an append at its version is then refused as a conflict): a command
   * refused on such a state is tried once more with `fresh`, which reads the stream from the database.
   */
  aggregate<State, Command>(
    aggregate: Aggregate<State, Command>,
    id: string,
    options?: { fresh?: boolean },
  ): Promise<LoadedAggregate<State>>;
  append(appends: StreamAppend[], metadata: EventMetadata, options?: AppendOptions): Promise<StoredEvent[]>;
}
