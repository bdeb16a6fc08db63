import type { EventType } from '../domain/events.ts';
import type { StoredEvent } from '../domain/stored-event.ts';

/** What a projection may depend on of an event; replay reads only these columns of the log. */
export const PROJECTED_FIELDS = ['position', 'stream_id', 'stream_type', 'type', 'data', 'metadata', 'occurred_at'] as const;

/** An event as projections see it: a StoredEvent without its ids, versions and hashes (per event type). */
export type ProjectedEvent = StoredEvent extends infer E ? (E extends StoredEvent ? Pick<E, (typeof PROJECTED_FIELDS)[number]> : never) : never;

/** A read-model row: plain column values (strings, numbers, booleans, null; times as ISO strings). */
export type Row = Record<string, string | number | boolean | null>;

export interface TableSpec {
  name: string;
  /** Primary-key columns; `get`/`delete` take their values in this order. */
  key: readonly string[];
  /** Rows are only ever inserted, never read back by the reducer (e.g. the audit log): replay streams them out. */
  appendOnly?: boolean;
}

/**
 * Where a projection reads and writes its rows. The same reducer runs inline against the append transaction
 * (rows in PostgreSQL) and in replay or offline verification (rows in memory), so the two cannot drift apart.
 */
export interface RowStore {
  get(table: string, key: readonly (string | number)[]): Promise<Row | undefined>;
  /** Inserts or replaces the row with the same key. */
  put(table: string, row: Row): Promise<void>;
  delete(table: string, key: readonly (string | number)[]): Promise<void>;
}

/**
 * One read model: the tables it owns and how each event it handles changes them. `apply` writes only its own
 * tables, reads only its own tables, and is deterministic (time comes from the event).
 */
export interface Projection {
  name: string;
  tables: readonly TableSpec[];
  handles: readonly EventType[];
  apply(store: RowStore, event: ProjectedEvent): Promise<void>;
}

export const defineProjection = (projection: Projection): Projection => projection;
