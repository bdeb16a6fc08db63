import { z } from 'zod';
import { REVIEW_TEXT_MAX } from '../domain/review/decide.ts';
import { decimalNumber, emailAddress, wholeNumber } from './input-fields.ts';

/** The longest review text the domain takes: the review form counts down to it. */
export { REVIEW_TEXT_MAX };

export const REVIEW_RATINGS = [5, 4.5, 4, 3.5, 3] as const;

const required = (field: string, max: number) =>
  z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** POST /api/reviews, shared by the server and the review form. */
export const reviewSubmissionSchema = z.object({
  name: required('name', 100),
  // Optional: absent, null or blank is no address.
  email: z.preprocess(
    (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v),
    emailAddress('email').nullable(),
  ),
  country: required('country', 80),
  rating: decimalNumber('rating')
    .refine((r) => (REVIEW_RATINGS as readonly number[]).includes(r), 'rating must be one of 5.0, 4.5, 4.0, 3.5, 3.0')
    .transform((r) => r as (typeof REVIEW_RATINGS)[number]),
  text: required('text', REVIEW_TEXT_MAX),
  escrow_id: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(z.uuid('escrow_id must be an escrow id').nullable()),
  terms_accepted: z.literal(true, 'You must accept the terms to submit a review'),
});

export const reviewListQuerySchema = z.object({
  skip: wholeNumber('skip').pipe(z.number().max(1_000_000, 'skip must be at most 1000000')).default(0),
  limit: wholeNumber('limit')
    .pipe(z.number().min(1, 'limit must be from 1 to 100').max(100, 'limit must be from 1 to 100'))
    .default(20),
  sort: z.enum(['newest', 'oldest', 'highest']).default('newest'),
  country: z
    .string()
    .trim()
    .max(80)
    .optional()
    .transform((v) => (v && v !== 'all' ? v : undefined)),
  min_rating: decimalNumber('min_rating')
    .pipe(z.number().min(3, 'min_rating must be from 3 to 5').max(5, 'min_rating must be from 3 to 5'))
    .optional(),
});
