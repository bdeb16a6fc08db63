import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../audit/verify-export.ts';
import { seedDemo } from '../demo/seed-demo.ts';
import { exportEvents } from '../event-store/export.ts';
import { bearer, signIn } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { toCsv } from './csv.ts';

let t: TestApp;
let admin: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await openTestApp();
  const { password } = await seedDemo(t.deps);
  admin = await signIn(t, 'admin', password);
}, 180_000);
afterAll(async () => t?.close());

async function csv(name: string, query = '') {
  const res = await t.app.request(`/api/admin/reports/${name}.csv${query}`, bearer(admin));
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
  const text = await res.text();
  expect(text.endsWith('\r\n')).toBe(true); // RFC 4180 line ends
  return parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/** A sum over the log itself, in SQL: what the files must add up to. */
async function logSum(field: string, types: string[]) {
  const row = await sql<{ total: string | number | null }>`
    SELECT coalesce(sum((data->>${field})::bigint), 0) AS total FROM events
    WHERE type IN (${sql.join(types)}) AND (type <> 'DisputeResolved' OR data->>'resolution' IS NOT NULL)`.execute(t.database.db);
  return Number(row.rows[0]!.total);
}
const sum = (rows: Record<string, string>[], column: string, where: (r: Record<string, string>) => boolean = () => true) =>
  rows.filter(where).reduce((total, r) => total + Number(r[column]), 0);

describe('CSV reports', () => {
  it('parse as CSV with a header row, and their sums equal the log\'s', async () => {
    const escrows = await csv('escrows');
    expect(escrows.length).toBeGreaterThan(5);
    expect(sum(escrows, 'amount_sats')).toBe(await logSum('amount_sats', ['EscrowCreated']));
    expect(Object.keys(escrows[0]!)).toContain('amount_usd');
    expect(JSON.stringify(escrows)).not.toMatch(/@/); // no e-mail addresses

    const payouts = await csv('payouts');
    expect(payouts.length).toBeGreaterThan(0);
    expect(sum(payouts, 'sats', (r) => r.to === 'seller')).toBe(await logSum('seller_sats', ['EscrowReleased', 'DisputeResolved']));
    expect(sum(payouts, 'sats', (r) => r.to === 'buyer')).toBe(await logSum('buyer_sats', ['EscrowRefunded', 'DisputeResolved']));
    for (const p of payouts) expect(p.usd).toMatch(/^\d+\.\d{2}$/);

    const fees = await csv('fees');
    expect(fees.length).toBeGreaterThan(0);
    expect(sum(fees, 'fee_sats')).toBe(await logSum('fee_sats', ['EscrowReleased', 'EscrowRefunded', 'DisputeResolved']));
    expect(fees.map((f) => f.month)).toEqual([...new Set(fees.map((f) => f.month))].sort());
  });

  it('keep to the range', async () => {
    expect(await csv('escrows', '?from=2000-01-01&to=2000-12-31')).toEqual([]);
    expect(await csv('payouts', '?to=2000-12-31')).toEqual([]);
    expect((await csv('escrows', `?from=${today}&to=${today}`)).length).toBeGreaterThan(5);
  });

  it('refuse a bad range naming the field', async () => {
    for (const [query, field] of [['?from=yesterday', 'from'], ['?to=2026-02-30', 'to'], ['?from=2026-02-01&to=2026-01-01', 'to']] as const) {
      const res = await t.app.request(`/api/admin/reports/fees.csv${query}`, bearer(admin));
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain(field);
    }
  });

  it('neutralise cells a spreadsheet would run, and quote as RFC 4180 says', () => {
    const text = toCsv(['a', 'b'], [['=HYPERLINK("x")', '+1'], ['-2', '@SUM(A1)'], ['plain, with "quotes"', 7]]);
    expect(parse(text, { columns: true })).toEqual([
      { a: '\'=HYPERLINK("x")', b: '\'+1' },
      { a: '\'-2', b: '\'@SUM(A1)' },
      { a: 'plain, with "quotes"', b: '7' },
    ]);
    expect(text).toContain('"plain, with ""quotes"""');
  });
});

describe('the Overview', () => {
  it('gives the figures verify-export prints for the same range', async () => {
    let text = '';
    await exportEvents(t.database.db, (line) => {
      text += line;
    });
    const file = join(mkdtempSync(join(tmpdir(), 'overview-')), 'export.ndjson');
    writeFileSync(file, text);
    for (const range of [{}, { from: today, to: today }, { from: '2000-01-01', to: '2000-01-31' }] as { from?: string; to?: string }[]) {
      const query = new URLSearchParams(range as Record<string, string>).toString();
      const res = await t.app.request(`/api/admin/reports/overview${query ? `?${query}` : ''}`, bearer(admin));
      expect(res.status).toBe(200);
      const { escrows_by_status: byStatus, pool, ...overview } = (await res.json()) as Record<string, unknown> & { escrows_by_status: Record<string, number>; pool: { available: number } };
      const { payouts: _payouts, ...books } = (await verifyExport(file, { range })).books;
      expect(overview).toEqual(books);
      if (!range.from) {
        expect(books.escrows_created).toBeGreaterThan(5);
        expect(books.fee_sats).toBeGreaterThan(0);
        expect(Object.values(byStatus).reduce((a, b) => a + b, 0)).toBe(books.escrows_created);
        expect(pool.available).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
