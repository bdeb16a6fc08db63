import type { EventType } from '../domain/events.ts';
import type { StoredEvent } from '../domain/stored-event.ts';
import type { RowOf, TableName } from './tables.ts';

/** What a projection may depend on of an event; replay reads only these columns of the log. */
export const PROJECTED_FIELDS = [
  'position',
  'stream_id',
  'stream_type',
  'type',
  'data',
  'metadata',
  'occurred_at',
] as const;

/** An event as projections see it: a StoredEvent without its ids, versions and hashes (per event type). */
export type ProjectedEvent = StoredEvent extends infer E
  ? E extends StoredEvent
    ? Pick<E, (typeof PROJECTED_FIELDS)[number]>
    : never
  : never;

/**
 * A read-model row of any table: plain column values (strings, numbers, booleans, null; times as ISO strings). What
 * the row stores and the event store keep inside; reducers see each table's own row type (RowOf).
 */
export type Row = Record<string, string | number | boolean | null>;

/**
 * A row a store kept untyped, as its table's row again: a store hands back for a table only rows put into that
 * table or read from it.
 */
export const asRowOf = <T extends TableName>(row: Row | undefined) => row as RowOf<T> | undefined;

export interface TableSpec {
  name: TableName;
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
  get<T extends TableName>(table: T, key: readonly (string | number)[]): Promise<RowOf<T> | undefined>;
  /** Inserts or replaces the row with the same key. */
  put<T extends TableName>(table: T, row: RowOf<T>): Promise<void>;
  delete(table: TableName, key: readonly (string | number)[]): Promise<void>;
  /**
   * True when the rows `get` answers belong to this store alone, so an update may change them in place (a replay
   * rebuilds a million rows: a copy of a 64-column escrow row per event was 6% of its CPU). Not so where a row
   * may be shared, as the rows a command reads from the live tables.
   */
  readonly ownsRows?: boolean;
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
