import { CompiledQuery, type Kysely } from 'kysely';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { RowChange } from '../../projections/buffered-row-store.ts';
import type { Row, TableSpec } from '../../projections/projection.ts';
import { PREPARE } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { ChainHead } from './chain-head.ts';

export interface AppendWrite {
  /** The head the events were chained to; nothing is written unless the log is still there. */
  from: ChainHead;
  to: ChainHead;
  streams: Array<{ streamId: string; streamType: string; expectedVersion: number; version: number }>;
  events: StoredEvent[];
  changes: Array<{ spec: TableSpec; changes: RowChange[] }>;
  /** Rows for tables beside the read models (queued mail, webhook deliveries), inserted only with the events. */
  inserts?: readonly AppendInsert[];
  /** Values the statement computes over rows it writes (see Returning), each handed back by row id. */
  returning?: readonly Returning[];
}

/**
 * A value the append's statement computes over each row it writes into `table`: `sql`, an expression over that row
 * aliased `e`, answered by the row's `id`. Any other table `sql` reads is seen as it was before the statement (one
 * statement, one snapshot), so it suits a row whose related rows the append does not write, such as a new escrow's.
 */
export interface Returning {
  table: string;
  sql: string;
}

/** Rows to insert into one table as they are (its other columns take their defaults). */
export interface PlainInsert {
  table: string;
  rows: Row[];
}

/**
 * Rows handed as JSON to a statement of the caller's own: `sql` reads them at `$rows` (as `jsonb_to_recordset($rows)`)
 * and must write nothing unless `APPLIED` holds. `shape` names the SQL (the same shape, the same text).
 */
export interface SelectedInsert {
  shape: string;
  sql: string;
  rows: unknown[];
}

export type AppendInsert = PlainInsert | SelectedInsert;

const EVENT_COLUMNS = [
  'position',
  'event_id',
  'stream_id',
  'stream_type',
  'stream_version',
  'type',
  'schema_version',
  'data',
  'metadata',
  'occurred_at',
  'prev_hash',
  'hash',
] as const;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const columnList = (columns: readonly string[]) => columns.map(quote).join(', ');
/** True in a part of the append's statement only when the head moved: the append applies. */
export const APPLIED = 'EXISTS (SELECT 1 FROM head)';

/**
 * One part of the statement: its shape (what decides its SQL), its SQL with `$$` where its JSON rows go (written
 * only the first time the statement's shape is seen), and the rows.
 */
interface Part {
  shape: string;
  sql: () => string;
  rows: unknown[];
  /** The read model's table whose rows it writes, when it answers them (RETURNING) for a Returning. */
  returns?: string;
}

/** Every stream of `$5` ([{ stream_id, version }]) is at the version the append expects (0: not yet written). */
const STREAMS_AT_EXPECTED = `NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($5::jsonb) AS expected(stream_id text, version integer)
  WHERE coalesce((SELECT version FROM streams WHERE streams.stream_id = expected.stream_id), 0) <> expected.version)`;

const recordset = (table: string) => `jsonb_populate_recordset(NULL::${quote(table)}, $$::jsonb)`;

/**
 * A row's set of columns, sorted and joined by commas, kept by the order its keys came in: a projection's rows come
 * in a few orders, and sorting the escrow's 64 columns for every append was 4% of a lone append's CPU.
 */
const sortedColumns = new Map<string, string>();
function columnsOf(row: Row): string {
  const keys = Object.keys(row);
  const given = keys.join(',');
  let sorted = sortedColumns.get(given);
  if (sorted === undefined) {
    sorted = keys.sort().join(',');
    if (sortedColumns.size < 1_000) sortedColumns.set(given, sorted);
  }
  return sorted;
}

/** Rows grouped by their set of columns (sorted, joined by commas). */
function byColumns(rows: readonly Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const columns = columnsOf(row);
    const group = groups.get(columns);
    if (group) group.push(row);
    else groups.set(columns, [row]);
  }
  return groups;
}

/** Upserts of one table's put rows, one part per set of columns; with `returns`, each answers the rows it wrote. */
function putParts(spec: TableSpec, puts: Row[], returns: boolean): Part[] {
  return [...byColumns(puts)].map(([joined, rows]) => ({
    shape: `put ${spec.name} ${joined}${returns ? ' returning' : ''}`,
    ...(returns && { returns: spec.name }),
    sql: () => {
      const columns = joined.split(',');
      const updates = columns.filter((c) => !spec.key.includes(c));
      const onConflict =
        updates.length === 0
          ? 'DO NOTHING'
          : `DO UPDATE SET ${updates.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`;
      return `INSERT INTO ${quote(spec.name)} (${columnList(columns)}) SELECT ${columnList(columns)} FROM ${recordset(spec.name)} WHERE ${APPLIED} ON CONFLICT (${columnList(spec.key)}) ${onConflict}${returns ? ' RETURNING *' : ''}`;
    },
    rows,
  }));
}

/** Plain inserts into one table, one part per set of columns. */
function insertParts({ table, rows: all }: PlainInsert): Part[] {
  return [...byColumns(all)].map(([joined, rows]) => ({
    shape: `insert ${table} ${joined}`,
    sql: () =>
      `INSERT INTO ${quote(table)} (${columnList(joined.split(','))}) SELECT ${columnList(joined.split(','))} FROM ${recordset(table)} WHERE ${APPLIED}`,
    rows,
  }));
}

function deletePart(spec: TableSpec, keys: ReadonlyArray<readonly (string | number)[]>): Part {
  const matches = () => spec.key.map((c) => `target.${quote(c)} = gone.${quote(c)}`).join(' AND ');
  return {
    shape: `delete ${spec.name}`,
    sql: () =>
      `DELETE FROM ${quote(spec.name)} AS target USING ${recordset(spec.name)} AS gone WHERE ${matches()} AND ${APPLIED}`,
    rows: keys.map((key) => Object.fromEntries(spec.key.map((column, i) => [column, key[i]]))),
  };
}

/**
 * Statement texts by shape: the same kind of command gives the same text, which the server prepares once. Written
 * as text, not with Kysely (executePrepared): its CTEs, one per table and set of columns touched, vary per append.
 * The streams' expected versions go in as one JSON parameter (`$5`), so a batch's text does not change with how
 * many streams it touches: with a subquery per stream, batches of creations took a new text at nearly every size,
 * and PostgreSQL planned each afresh (10 ms a plan of this statement, against 1 ms per creation to run it).
 */
const texts = new Map<string, string>();

function statementText(parts: Part[], returning: readonly Returning[]): string {
  const shape = [...parts.map((p) => p.shape), ...returning.map((r) => `returning ${r.table} ${r.sql}`)].join('|');
  const known = texts.get(shape);
  if (known) return known;
  let n = 5;
  const ctes = parts.map((p, i) => `w${i} AS (${p.sql().replace('$$', () => `$${++n}`)})`);
  const moved = 'SELECT count(*)::int AS moved FROM head';
  const text = `${PREPARE} WITH head AS (UPDATE chain_head SET position = $1, hash = $2 WHERE id = 1 AND position = $3 AND hash = $4 AND ${STREAMS_AT_EXPECTED} RETURNING 1), ${ctes.join(', ')} ${
    returning.length === 0
      ? moved
      : `SELECT h.moved, r.k, r.id, r.value FROM (${moved}) h LEFT JOIN (${returnedRows(parts, returning)}) r ON true`
  }`;
  if (texts.size < 1_000) texts.set(shape, text);
  return text;
}

/** Each Returning's value for every row its table's parts wrote: `k` its index, `id` the row's. */
function returnedRows(parts: readonly Part[], returning: readonly Returning[]): string {
  return returning
    .flatMap((r, k) =>
      parts.flatMap((p, i) =>
        p.returns === r.table ? [`SELECT ${k} AS k, e.id::text AS id, (${r.sql})::text AS value FROM w${i} AS e`] : [],
      ),
    )
    .concat('SELECT NULL::int, NULL::text, NULL::text WHERE false')
    .join(' UNION ALL ');
}

/**
 * A batch's inserts, one per table (plain) or per statement of the caller's (selected), each with the rows of every
 * append in order: a batch of creations has the same parts, and so the same text, at any size. One part per append
 * gave a new text for each batch size, up to a hundred CTEs to plan.
 */
function mergedInserts(inserts: readonly AppendInsert[]): AppendInsert[] {
  const merged = new Map<string, AppendInsert>();
  for (const insert of inserts) {
    const key = 'sql' in insert ? `selected ${insert.shape}` : `plain ${insert.table}`;
    const known = merged.get(key);
    if (known) (known.rows as unknown[]).push(...insert.rows);
    else merged.set(key, { ...insert, rows: [...insert.rows] } as AppendInsert);
  }
  return [...merged.values()];
}

/**
 * Writes one append in ONE statement: moves the chain head, records the stream versions, inserts the events,
 * applies every read-model change and inserts the plain rows that go with it. The head moves only if it is still at
 * `from` and every stream is still at its expected version (re-checked on the newest row version if another append
 * commits first); every other part runs only if the head moved. Returns whether it did, so a caller that chained to
 * a stale head can retry under the lock, and the values `returning` asked for.
 */
export async function writeAppend(db: Kysely<Database>, write: AppendWrite): Promise<AppendWritten> {
  const returning = write.returning ?? [];
  const returnedTables = new Set(returning.map((r) => r.table));
  const parts: Part[] = [
    {
      shape: 'streams',
      sql: () =>
        `INSERT INTO streams (stream_id, stream_type, version) SELECT stream_id, stream_type, version FROM ${recordset('streams')} WHERE ${APPLIED} ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version`,
      rows: write.streams.map((s) => ({ stream_id: s.streamId, stream_type: s.streamType, version: s.version })),
    },
    {
      shape: 'events',
      sql: () =>
        `INSERT INTO events (${columnList(EVENT_COLUMNS)}) SELECT ${columnList(EVENT_COLUMNS)} FROM ${recordset('events')} WHERE ${APPLIED}`,
      rows: write.events,
    },
  ];
  for (const { spec, changes } of write.changes) {
    const puts = changes.flatMap((c) => (c.kind === 'put' ? [c.row] : []));
    const deletes = changes.flatMap((c) => (c.kind === 'delete' ? [c.key] : []));
    if (puts.length) parts.push(...putParts(spec, puts, returnedTables.has(spec.name)));
    if (deletes.length) parts.push(deletePart(spec, deletes));
  }
  for (const insert of mergedInserts(write.inserts ?? [])) {
    if (insert.rows.length === 0) continue;
    if ('sql' in insert)
      parts.push({ shape: insert.shape, sql: () => insert.sql.replace('$rows', () => '$$'), rows: insert.rows });
    else parts.push(...insertParts(insert));
  }
  const expected = write.streams.map((s) => ({ stream_id: s.streamId, version: s.expectedVersion }));
  const values: unknown[] = [
    write.to.position,
    write.to.hash,
    write.from.position,
    write.from.hash,
    JSON.stringify(expected),
  ];
  for (const p of parts) values.push(JSON.stringify(p.rows));
  const result = await db.executeQuery<{ moved: number; k?: number | null; id?: string | null; value?: string | null }>(
    CompiledQuery.raw(statementText(parts, returning), values),
  );
  // With `returning`, a row per value (k, id, value), or one of nulls when there is none; `moved` on every row.
  const returned = returning.map(() => new Map<string, string>());
  for (const { k, id, value } of result.rows) if (typeof k === 'number' && id && value) returned[k]!.set(id, value);
  return { moved: Number(result.rows[0]?.moved ?? 0) === 1, returned };
}

/** Whether the append applied (the head was still where it was chained to), and each Returning's values by row id. */
export interface AppendWritten {
  moved: boolean;
  returned: Map<string, string>[];
}
