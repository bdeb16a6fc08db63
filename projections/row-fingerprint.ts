import { hash } from 'node:crypto';
import { sql } from 'kysely';
import type { DynamicDb } from './dynamic-db.ts';
import type { Row } from './projection.ts';

/**
 * A table's rows summed up without storing them: a row count and the sum of a hash of every row's text, computed the
 * same way by PostgreSQL over the live table and here over rows as a reducer built them. Replay compares an
 * append-only read model (the audit log: a row per event) this way instead of writing its rebuild to a scratch
 * table first. Each column is written as its byte length, a colon and its text (`-` for null), so no two rows share
 * a text; a row hashes to the first 15 hex digits (60 bits) of its SHA-256, and the sum is exact (numeric, BigInt).
 */
export interface Fingerprint {
  n: number;
  checksum: string;
}

interface Column {
  name: string;
  /** The column's text in SQL, from table alias `t`, or null. */
  sql: string;
  /** The same text from a rebuilt row's value (never null or undefined). */
  text: (value: string | number | boolean) => string;
}

/** How each type the fingerprint supports is written as text, in PostgreSQL and here. */
const COLUMN_TEXT: Record<string, { sql: (ref: string) => string; text: Column['text'] }> = {
  text: { sql: (ref) => ref, text: String },
  'character varying': { sql: (ref) => ref, text: String },
  bigint: { sql: (ref) => `${ref}::text`, text: String },
  integer: { sql: (ref) => `${ref}::text`, text: String },
  smallint: { sql: (ref) => `${ref}::text`, text: String },
  boolean: {
    sql: (ref) => `CASE WHEN ${ref} THEN 't' WHEN NOT ${ref} THEN 'f' END`,
    text: (v) => (v === true || v === 't' ? 't' : 'f'),
  },
  uuid: { sql: (ref) => `${ref}::text`, text: (v) => String(v).toLowerCase() },
  // To the microsecond, in UTC: a live time off by less than a millisecond still differs from the rebuilt one.
  'timestamp with time zone': {
    sql: (ref) => `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
    text: (v) => `${isoMillis(v) ? v.slice(0, 23) : new Date(v as string | number).toISOString().slice(0, 23)}000`,
  },
};

/** A time as replay reads it (`YYYY-MM-DDTHH:MM:SS.mmmZ`), already in the fingerprint's shape but for its end. */
const isoMillis = (v: unknown): v is string =>
  typeof v === 'string' && v.length === 24 && v[19] === '.' && v[23] === 'Z';

/**
 * How to fingerprint `table` (in `public`), from its columns as the database declares them; undefined when a column's
 * type is not one the fingerprint writes (such a table is compared through a scratch table instead).
 */
export async function fingerprintPlan(db: DynamicDb, table: string): Promise<FingerprintPlan | undefined> {
  const { rows } = await sql<{ column_name: string; data_type: string }>`
    SELECT column_name, data_type FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`.execute(db);
  const columns: Column[] = [];
  for (const { column_name: name, data_type: type } of rows) {
    const written = COLUMN_TEXT[type];
    if (!written) return undefined;
    columns.push({ name, sql: written.sql(`t."${name.replaceAll('"', '""')}"`), text: written.text });
  }
  return columns.length ? new FingerprintPlan(table, columns) : undefined;
}

export class FingerprintPlan {
  constructor(
    readonly table: string,
    private readonly columns: readonly Column[],
  ) {}

  /** The live table's fingerprint, computed by the database. */
  async ofLive(db: DynamicDb): Promise<Fingerprint> {
    const text = this.columns.map((c) => `coalesce(octet_length(${c.sql})::text || ':' || ${c.sql}, '-')`).join(' || ');
    const { rows } = await sql<{ n: number; checksum: string }>`
      SELECT count(*)::int AS n,
        coalesce(sum(('x' || substr(encode(sha256(convert_to(${sql.raw(text)}, 'UTF8')), 'hex'), 1, 15))::bit(60)::bigint), 0)::text AS checksum
      FROM ${sql.table(`public.${this.table}`)} AS t`.execute(db);
    return rows[0]!;
  }

  /** An empty sum that rebuilt rows are added to. */
  sum(): RowsFingerprint {
    return new RowsFingerprint(this.columns);
  }
}

/** Rows between carries into the exact sum: the low part stays below 2^53. */
const CARRY_EVERY = 1_000_000;

/** The fingerprint of rows added one by one. A row missing a column (its default unknown here) makes it unusable. */
export class RowsFingerprint {
  private n = 0;
  private total = 0n;
  /** The sum since the last carry into `total`, in two parts exact as numbers: each hash's high 28 bits, its low 32. */
  private high = 0;
  private low = 0;
  /** Every row had every column: the fingerprint can stand for the rows. */
  complete = true;

  constructor(private readonly columns: readonly Column[]) {}

  add(row: Row): void {
    let text = '';
    for (const column of this.columns) {
      const value = row[column.name];
      if (value === undefined) this.complete = false;
      if (value === null || value === undefined) {
        text += '-';
        continue;
      }
      const written = column.text(value);
      text += `${Buffer.byteLength(written)}:${written}`;
    }
    const hex = hash('sha256', text);
    this.high += Number.parseInt(hex.slice(0, 7), 16);
    this.low += Number.parseInt(hex.slice(7, 15), 16);
    if (++this.n % CARRY_EVERY === 0) this.carry();
  }

  result(): Fingerprint {
    this.carry();
    return { n: this.n, checksum: this.total.toString() };
  }

  private carry(): void {
    this.total += (BigInt(this.high) << 32n) + BigInt(this.low);
    this.high = 0;
    this.low = 0;
  }
}
