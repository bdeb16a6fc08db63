import { z } from 'zod';
import { email, uuid } from '../shared/schemas.ts';

export const reviewRating = z.union([z.literal(5), z.literal(4.5), z.literal(4), z.literal(3.5), z.literal(3)]);
export type ReviewRating = z.infer<typeof reviewRating>;

/** Facts about one review, stored on the stream `review:{review_id}`. The original text stays in the log. */
export const reviewEventSchemas = {
  ReviewSubmitted: z.object({
    review_id: uuid,
    name: z.string(),
    email: email.nullable(),
    country: z.string(),
    rating: reviewRating,
    text: z.string(),
    escrow_id: uuid.nullable(),
    /** The submitter was signed in as a party of that escrow, and it was released. */
    verified_deal: z.boolean(),
  }),
  ReviewApproved: z.object({}),
  ReviewEdited: z.object({ edited_text: z.string(), admin_note: z.string() }),
  ReviewRejected: z.object({ reason: z.string().min(1) }),
  ReviewReopened: z.object({}),
  ReviewDeleted: z.object({}),
} as const;

type Schemas = typeof reviewEventSchemas;
export type ReviewEventType = keyof Schemas;
export type ReviewEvent = { [K in ReviewEventType]: { type: K; data: z.infer<Schemas[K]> } }[ReviewEventType];
