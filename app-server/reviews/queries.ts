import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import type { reviewListQuerySchema } from '../../contract/review-requests.ts';
import { REVIEW_RATINGS } from '../../contract/review-requests.ts';
import { isoSql, jsonArray, jsonObjectSql } from '../db/json-view.ts';
import { executePrepared } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** A review as the public page shows it: no e-mail, no moderation notes (SQL over the reviews row `r`). */
const PUBLIC_FIELDS = [
  ['id', 'r.id'],
  ['name', 'r.name'],
  ['country', 'r.country'],
  ['rating', 'r.rating'],
  ['text', 'r.text'],
  ['created_at', isoSql('r.created_at')],
  ['edited_by_admin', 'r.edited_by_admin'],
  ['verified_deal', 'r.verified_deal'],
  ['status', 'r.status'],
] as const;

/** A review as moderators see it. */
const MODERATED_FIELDS = [
  ...PUBLIC_FIELDS,
  ['email', 'r.email'],
  ['escrow_id', 'r.escrow_id'],
  ['admin_edit_note', 'r.admin_edit_note'],
  ['rejection_reason', 'r.rejection_reason'],
  ['updated_at', isoSql('r.updated_at')],
] as const;

const publicJson = sql.raw<string>(jsonObjectSql(PUBLIC_FIELDS));
const moderatedJson = sql.raw<string>(jsonObjectSql(MODERATED_FIELDS));

/** One page of public reviews as JSON text; indexes on (published, created_at) and (published, rating, created_at) serve it. */
export async function listPublicReviews(
  db: Kysely<Database>,
  query: z.infer<typeof reviewListQuerySchema>,
): Promise<string> {
  let q = db.selectFrom('reviews as r').select(publicJson.as('json')).where('r.published', '=', true);
  if (query.country) q = q.where('r.country', '=', query.country);
  if (query.min_rating !== undefined) q = q.where('r.rating', '>=', query.min_rating);
  q =
    query.sort === 'oldest'
      ? q.orderBy('r.created_at', 'asc').orderBy('r.id', 'asc')
      : query.sort === 'highest'
        ? q.orderBy('r.rating', 'desc').orderBy('r.created_at', 'desc').orderBy('r.id', 'desc')
        : q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc');
  const rows = await executePrepared(db, q.offset(query.skip).limit(query.limit));
  return jsonArray(rows.map((row) => row.json));
}

/** Reviews for moderation as JSON text: those pending, oldest first, or all of them, newest first. */
export async function listModeratedReviews(db: Kysely<Database>, which: 'pending' | 'all'): Promise<string> {
  const base = db.selectFrom('reviews as r').select(moderatedJson.as('json'));
  const rows = await (
    which === 'pending'
      ? base.where('r.status', '=', 'pending').orderBy('r.created_at').orderBy('r.id')
      : base.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc')
  ).execute();
  return jsonArray(rows.map((row) => row.json));
}

/** Average to one decimal, total and distribution, from the per-star counts (never a scan of the reviews). */
export async function reviewStats(db: Kysely<Database>) {
  const rows = await db.selectFrom('review_stats').selectAll().execute();
  const distribution: Record<string, number> = Object.fromEntries(REVIEW_RATINGS.map((r) => [r.toFixed(1), 0]));
  let total = 0;
  let tenths = 0;
  for (const row of rows) {
    distribution[row.rating] = row.count;
    total += row.count;
    tenths += Math.round(Number(row.rating) * 10) * row.count;
  }
  // The average in tenths is tenths / total; rounded half up with integers only.
  const averageTenths = total === 0 ? 0 : Math.floor((2 * tenths + total) / (2 * total));
  return { average_rating: averageTenths / 10, total, distribution };
}

export async function reviewCountries(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('review_countries').select('country').orderBy('country').execute();
  return rows.map((r) => r.country);
}
