/** The statements that write a replay's rebuilt rows to its scratch tables, and remove them (replay.ts). */
import { sql } from 'kysely';
import type { Row, TableSpec } from './projection.ts';

/** Rows per statement. */
const INSERT_BATCH = 5_000;

/**
 * Rows into `table` (schema-qualified) in batches, each batch one parameter: an array of the table's row type as
 * text, `{"(...)","(...)"}`, with `columns` the table's columns in order. PostgreSQL reads that in under half the
 * time it took to turn the same rows sent as JSON into rows (json_populate_recordset; 20,000 escrow rows: 234 ms
 * against 550). Rows are grouped by their set of columns, and only those are inserted, so a column a row leaves out
 * gets its default. The scratch tables are UNLOGGED: they are thrown away, so no write-ahead log is written for them.
 */
export function insertStatements(table: string, columns: readonly string[], rows: readonly Row[]) {
  const target = sql.table(table);
  const byColumns = new Map<string, Row[]>();
  for (const row of rows) {
    const given = Object.keys(row).join(',');
    const group = byColumns.get(given);
    if (group) group.push(row);
    else byColumns.set(given, [row]);
  }
  const statements = [];
  for (const [joined, group] of byColumns) {
    const given = sql.join(joined.split(',').map((c) => sql.ref(c)));
    for (let i = 0; i < group.length; i += INSERT_BATCH) {
      const literal = rowTypeArray(columns, group.slice(i, i + INSERT_BATCH));
      statements.push(
        sql`INSERT INTO ${target} (${given}) SELECT ${given} FROM unnest(CAST(${literal} AS ${sql.raw(table)}[]))`,
      );
    }
  }
  return statements;
}

/**
 * Rows as the text of an array of their table's row type. Each row is an element in double quotes holding
 * `(field,field,...)`: a null is an empty field, any other value a field in double quotes. A `"` or `\` in a value is
 * escaped twice, for the field and then for the element.
 */
export function rowTypeArray(columns: readonly string[], rows: readonly Row[]): string {
  const elements: string[] = [];
  for (const row of rows) {
    let element = '"(';
    for (let i = 0; i < columns.length; i++) {
      if (i > 0) element += ',';
      const value = row[columns[i]!];
      if (value === null || value === undefined) continue;
      element += `\\"${escapedTwice(fieldText(value))}\\"`;
    }
    elements.push(`${element})"`);
  }
  return `{${elements.join(',')}}`;
}

const fieldText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'boolean'
      ? value
        ? 't'
        : 'f'
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);

const NEEDS_ESCAPE = /["\\]/;
const escapedTwice = (text: string) =>
  NEEDS_ESCAPE.test(text) ? text.replace(/["\\]/g, (c) => (c === '"' ? '\\\\\\"' : '\\\\\\\\')) : text;

/** Removes the rows of `table` (schema-qualified) whose key is one of `keys` (rows of the key columns). */
export function deleteByKeys(table: string, spec: TableSpec, keys: readonly Row[]) {
  const target = sql.table(table);
  const on = sql.join(
    spec.key.map((c) => sql`t.${sql.ref(c)} = k.${sql.ref(c)}`),
    sql` AND `,
  );
  return sql`DELETE FROM ${target} AS t USING json_populate_recordset(NULL::${target}, ${JSON.stringify(keys)}::json) AS k WHERE ${on}`;
}
