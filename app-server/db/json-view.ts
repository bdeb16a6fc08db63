/**
 * Answers the database writes as JSON text: for lists read often, no row is parsed into objects only to be
 * serialised again. Each view is a list of (field name, SQL expression) over one table alias.
 */

/** Integer minor units as an exact decimal JSON number: cents with scale 2 → 12.50, satoshis with scale 8. */
export const decimalSql = (column: string, scale: number) => `round(${column}::numeric / ${10 ** scale}, ${scale})`;

/** A time as JavaScript's toISOString writes it (UTC, milliseconds, Z); null stays null. */
export const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A scalar subquery giving the JSON text of an object with these fields, in this order. */
export const jsonObjectSql = (fields: ReadonlyArray<readonly [name: string, expression: string]>) =>
  `(SELECT row_to_json(v)::text FROM (SELECT ${fields.map(([name, expression]) => `${expression} AS ${name}`).join(', ')}) v)`;

/** Rows' JSON texts as one JSON array. */
export const jsonArray = (texts: readonly string[]) => `[${texts.join(',')}]`;
