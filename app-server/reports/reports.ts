import type { Kysely } from 'kysely';
import { type BooksRange, centsText } from '../../projections/books/books.ts';
import type { Database } from '../db/schema.ts';
import { booksFromLog, dayAfter } from './books-from-log.ts';
import { toCsv } from './csv.ts';

/** escrows.csv: every escrow opened in the range, with its amounts and where it stands now. */
export async function escrowsCsv(db: Kysely<Database>, range: BooksRange): Promise<string> {
  let query = db
    .selectFrom('escrows')
    .select(['id', 'created_at', 'status', 'amount_cents', 'fee_cents', 'total_cents', 'rate_cents', 'amount_sats', 'funded_at', 'closed_at', 'seller_sats', 'buyer_sats', 'fee_sats', 'payment_txid', 'payout_txid'])
    .orderBy('created_at')
    .orderBy('id');
  if (range.from) query = query.where('created_at', '>=', `${range.from}T00:00:00Z` as unknown as Date);
  if (range.to) query = query.where('created_at', '<', dayAfter(range.to) as unknown as Date);
  const rows = await query.execute();
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return toCsv(
    ['created_at', 'escrow_id', 'status', 'amount_usd', 'fee_usd', 'total_usd', 'rate_usd', 'amount_sats', 'funded_at', 'closed_at', 'seller_sats', 'buyer_sats', 'fee_sats', 'payment_txid', 'payout_txid'],
    rows.map((r) => [
      r.created_at.toISOString(),
      r.id,
      r.status,
      centsText(r.amount_cents),
      centsText(r.fee_cents),
      centsText(r.total_cents),
      centsText(r.rate_cents),
      r.amount_sats,
      iso(r.funded_at),
      iso(r.closed_at),
      r.seller_sats,
      r.buyer_sats,
      r.fee_sats,
      r.payment_txid,
      r.payout_txid,
    ]),
  );
}

/** payouts.csv: every release, refund and split share in the range, from the log. */
export async function payoutsCsv(db: Kysely<Database>, range: BooksRange): Promise<string> {
  const books = await booksFromLog(db, range);
  return toCsv(
    ['time', 'escrow_id', 'kind', 'to', 'destination_address', 'sats', 'usd', 'txid', 'event_position'],
    books.payouts.map((p) => [p.at, p.escrow_id, p.kind, p.to, p.address, p.sats, centsText(p.usd_cents), p.txid, p.position]),
  );
}

/** fees.csv: the fees taken per month in the range, from the log. */
export async function feesCsv(db: Kysely<Database>, range: BooksRange): Promise<string> {
  const books = await booksFromLog(db, range);
  return toCsv(
    ['month', 'escrows_closed', 'fee_sats', 'fee_usd'],
    books.by_month.filter((m) => m.escrows_closed_with_fee > 0).map((m) => [m.month, m.escrows_closed_with_fee, m.fee_sats, centsText(m.fee_cents)]),
  );
}
