import { z } from 'zod';

const isoTime = z.string().describe('ISO 8601 time, UTC');

export const reviewStatusSchema = z.enum(['pending', 'approved', 'edited_by_admin', 'rejected']);

/** A review as the public sees it (never the reviewer's e-mail). */
export const publicReviewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  country: z.string(),
  rating: z.number().describe('5.0, 4.5, 4.0, 3.5 or 3.0'),
  text: z.string(),
  created_at: isoTime,
  edited_by_admin: z.boolean(),
  verified_deal: z.boolean().describe('Written by a party of the named escrow, which was released'),
  status: reviewStatusSchema,
});
export type PublicReview = z.infer<typeof publicReviewSchema>;
export const publicReviewsSchema = z.array(publicReviewSchema);

/** A review as moderators see it. */
export const adminReviewSchema = publicReviewSchema.extend({
  email: z.string().nullable(),
  escrow_id: z.string().nullable(),
  admin_edit_note: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  updated_at: isoTime,
});
export type AdminReview = z.infer<typeof adminReviewSchema>;
export const adminReviewsSchema = z.array(adminReviewSchema);

export const reviewStatsSchema = z.strictObject({
  average_rating: z.number().describe('Rounded half up to one decimal'),
  total: z.number().int(),
  distribution: z.record(z.string(), z.number().int()).describe('Published reviews per rating ("5.0" … "3.0")'),
});

export type ReviewStats = z.infer<typeof reviewStatsSchema>;

export const reviewCountriesSchema = z.array(z.string());

export const reviewReceivedSchema = z.strictObject({ detail: z.string(), id: z.string() });
