import { type Kysely, sql } from 'kysely';
import { type Books, BooksCalculator, type BooksEvent, type BooksRange } from '../../projections/books/books.ts';
import type { Database } from '../db/schema.ts';
import { walkLog } from '../event-store/read.ts';

/** The books of a range from the log in the database: every escrow event, page by page (constant memory). */
export async function booksFromLog(db: Kysely<Database>, range: BooksRange): Promise<Books> {
  const calculator = new BooksCalculator(range);
  for await (const page of walkLog(db, { streamType: 'escrow', pageSize: 5_000 })) {
    for (const event of page) calculator.add(event as BooksEvent);
  }
  return calculator.result();
}

/** The first instant after the range's last day (its `to` is a date, included). */
export const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** Escrows opened in the range, by their status now (the escrows read model). */
export async function escrowsByStatus(db: Kysely<Database>, range: BooksRange): Promise<Record<string, number>> {
  let query = db.selectFrom('escrows').select(['status', sql<number>`count(*)::int`.as('n')]).groupBy('status');
  if (range.from) query = query.where('created_at', '>=', `${range.from}T00:00:00Z` as unknown as Date);
  if (range.to) query = query.where('created_at', '<', dayAfter(range.to) as unknown as Date);
  const rows = await query.execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** The address pool now: how many addresses are free, assigned to an open escrow, or used. */
export async function poolHealth(db: Kysely<Database>): Promise<{ available: number; assigned: number; used: number }> {
  const rows = await db.selectFrom('addresses').select(['status', sql<number>`count(*)::int`.as('n')]).groupBy('status').execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { available: count('available'), assigned: count('assigned'), used: count('used') };
}
