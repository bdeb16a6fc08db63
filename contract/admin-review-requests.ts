import { z } from 'zod';

/** The moderation of reviews (/api/admin/reviews). */

/** The path of every call on one review. */
export const reviewIdParam = z.object({ id: z.uuid('id must be a review id') });

// Empty fields arrive as '' from forms; the decider turns a blank reason into its own message.

/** POST /api/admin/reviews/{id}/reject. */
export const rejectReviewSchema = z.object({ reason: z.string().max(1000).default('') });

/** POST /api/admin/reviews/{id}/edit. */
export const editReviewSchema = z.object({
  edited_text: z.string().max(5000).default(''),
  admin_note: z.string().max(1000).default(''),
});
