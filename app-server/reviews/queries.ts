import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { reviewListQuerySchema } from '../../domain/review/api-schemas.ts';
import { REVIEW_RATINGS } from '../../domain/review/api-schemas.ts';
import type { ReviewRow } from '../../projections/reviews/table.ts';
import type { Database } from '../db/schema.ts';

/** A review as the public page shows it: no e-mail, no moderation notes. */
export const publicReview = (r: Selectable<ReviewRow>) => ({
  id: r.id,
  name: r.name,
  country: r.country,
  rating: r.rating,
  text: r.text,
  created_at: r.created_at.toISOString(),
  edited_by_admin: r.edited_by_admin,
  verified_deal: r.verified_deal,
  status: r.status,
});

/** A review as moderators see it. */
export const moderatedReview = (r: Selectable<ReviewRow>) => ({
  ...publicReview(r),
  email: r.email,
  escrow_id: r.escrow_id,
  admin_edit_note: r.admin_edit_note,
  rejection_reason: r.rejection_reason,
  updated_at: r.updated_at.toISOString(),
});

/** One page of public reviews; indexes on (status, created_at) and (status, rating, created_at) serve it. */
export async function listPublicReviews(db: Kysely<Database>, query: z.infer<typeof reviewListQuerySchema>) {
  let q = db.selectFrom('reviews').selectAll().where('published', '=', true);
  if (query.country) q = q.where('country', '=', query.country);
  if (query.min_rating !== undefined) q = q.where('rating', '>=', query.min_rating);
  q =
    query.sort === 'oldest'
      ? q.orderBy('created_at', 'asc').orderBy('id', 'asc')
      : query.sort === 'highest'
        ? q.orderBy('rating', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc')
        : q.orderBy('created_at', 'desc').orderBy('id', 'desc');
  return (await q.offset(query.skip).limit(query.limit).execute()).map(publicReview);
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
