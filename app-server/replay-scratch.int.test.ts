import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';
import type { Row } from '../projections/projection.ts';
import { rowTypeArray } from '../projections/scratch-statements.ts';
import { fingerprintPlan } from '../projections/row-fingerprint.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await sql`CREATE TABLE fingerprint_probe (
    id bigint PRIMARY KEY, label text, small smallint, count integer, flag boolean, who uuid,
    at timestamp with time zone, note character varying)`.execute(t.db);
});
beforeEach(async () => sql`DELETE FROM fingerprint_probe`.execute(t.db));
afterAll(async () => {
  await sql`DROP TABLE IF EXISTS fingerprint_probe`.execute(t.db);
  await t.dispose();
});

/** Rows as a reducer builds them: times as replay reads them, ids and uuids as events carry them. */
const rows: Row[] = [
  {
    id: 1,
    label: 'UserRegistered',
    small: 3,
    count: 70000,
    flag: true,
    who: '0B1C2D3E-0000-4000-8000-000000000001',
    at: '2026-03-01T10:11:12.345Z',
    note: 'plain',
  },
  { id: 2, label: '', small: null, count: -5, flag: false, who: null, at: '2026-03-01T00:00:00.000Z', note: null },
  { id: 3, label: 'a:b|c-\n"quoted"', small: 0, count: 0, flag: null, who: null, at: null, note: 'zürich 🚲 東京' },
];

async function insert(values: readonly Row[]) {
  for (const row of values) await sql`INSERT INTO fingerprint_probe ${sql.raw(insertTail(row))}`.execute(t.db);
}
const insertTail = (row: Row) => {
  const columns = Object.keys(row);
  const literal = (v: unknown) => (v === null ? 'NULL' : `'${String(v).replaceAll("'", "''")}'`);
  return `(${columns.join(', ')}) VALUES (${columns.map((c) => literal(row[c])).join(', ')})`;
};

const sumOf = async (values: readonly Row[]) => {
  const sum = (await fingerprintPlan(t.db, 'fingerprint_probe'))!.sum();
  for (const row of values) sum.add(row);
  return { fingerprint: sum.result(), complete: sum.complete };
};

describe('row fingerprint', () => {
  it('gives the same figures for rows in the table and the same rows as a reducer built them', async () => {
    await insert(rows);
    const live = await (await fingerprintPlan(t.db, 'fingerprint_probe'))!.ofLive(t.db);
    expect(live.n).toBe(3);
    expect(await sumOf(rows)).toEqual({ fingerprint: live, complete: true });
    // No rows: the same on both sides too.
    await sql`DELETE FROM fingerprint_probe`.execute(t.db);
    expect((await sumOf([])).fingerprint).toEqual(
      await (await fingerprintPlan(t.db, 'fingerprint_probe'))!.ofLive(t.db),
    );
  });

  it('tells apart rows that differ in one value, a null, a microsecond or where a text splits', async () => {
    await insert(rows);
    const live = await (await fingerprintPlan(t.db, 'fingerprint_probe'))!.ofLive(t.db);
    const changed = (id: number, change: Row) => rows.map((r) => (r.id === id ? { ...r, ...change } : r));
    for (const variant of [
      changed(1, { count: 70001 }),
      changed(1, { flag: false }),
      changed(2, { label: null }),
      changed(2, { who: '0b1c2d3e-0000-4000-8000-000000000002' }),
      changed(3, { label: 'a:b|c-\n"quoted', note: '"zürich 🚲 東京' }),
    ]) {
      expect((await sumOf(variant)).fingerprint).not.toEqual(live);
    }
    await sql`UPDATE fingerprint_probe SET at = at + interval '1 microsecond' WHERE id = 1`.execute(t.db);
    expect((await sumOf(rows)).fingerprint).not.toEqual(
      await (await fingerprintPlan(t.db, 'fingerprint_probe'))!.ofLive(t.db),
    );
  });

  it('cannot stand for rows that leave a column to its default, nor for a table of a type it does not write', async () => {
    const { note: _leftToItsDefault, ...withoutNote } = rows[1]!;
    expect((await sumOf([withoutNote])).complete).toBe(false);
    await sql`ALTER TABLE fingerprint_probe ADD COLUMN extra jsonb`.execute(t.db);
    try {
      expect(await fingerprintPlan(t.db, 'fingerprint_probe')).toBeUndefined();
    } finally {
      await sql`ALTER TABLE fingerprint_probe DROP COLUMN extra`.execute(t.db);
    }
  });
});

describe('rows sent as an array of their row type', () => {
  it('arrive as they were sent, whatever their text holds', async () => {
    const awkward = [
      'plain',
      '',
      ' spaces around ',
      'a,b (c) {d} [e]',
      'quote " and ""two""',
      'back\\slash \\" and \\\\',
      'NULL',
      'new\nline\ttab',
      'zürich 🚲 東京',
    ];
    const sent: Row[] = awkward.map((label, i) => ({
      id: i + 1,
      label,
      small: i,
      count: 7 * i - 30,
      flag: i % 2 === 0,
      who: i % 3 === 0 ? null : '0b1c2d3e-0000-4000-8000-00000000000a',
      at: '2026-03-01T10:11:12.345Z',
      note: i % 2 === 0 ? null : `${label}!`,
    }));
    const columns = ['id', 'label', 'small', 'count', 'flag', 'who', 'at', 'note'];
    await sql`INSERT INTO fingerprint_probe SELECT * FROM unnest(CAST(${rowTypeArray(columns, sent)} AS fingerprint_probe[]))`.execute(
      t.db,
    );
    const { rows: back } = await sql<Row>`
      SELECT id::int AS id, label, small, count, flag, who::text AS who,
        to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, note
      FROM fingerprint_probe ORDER BY id`.execute(t.db);
    expect(back).toEqual(sent);
  });
});
