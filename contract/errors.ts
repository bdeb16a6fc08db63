import { z } from 'zod';

/** Every refusal: `detail` for people, `code` for programs (the DomainError's reason, else its code). */
export const errorSchema = z.strictObject({
  detail: z.string().describe('What went wrong, for people; names the field when the input was refused'),
  code: z
    .string()
    .describe(
      'Machine-readable: e.g. invalid_input, unauthenticated, forbidden, not_found, conflict, transition_not_allowed, totp_required, rate_limited, not_ready',
    ),
});
export type ApiErrorBody = z.infer<typeof errorSchema>;

/** A short confirmation. */
export const messageSchema = z.strictObject({ detail: z.string() });

/** What each error status means, for the documentation. */
export const ERROR_DESCRIPTIONS = {
  400: 'The request is malformed (not JSON, wrong content type)',
  401: 'Not signed in, or the session expired',
  403: 'Signed in, but not allowed (wrong role, suspended, e-mail not confirmed, 2FA needed)',
  404: 'No such record, or not visible to you',
  409: 'The record changed meanwhile, is a duplicate, or is not in a status that allows this',
  413: 'The body is larger than allowed',
  415: 'The content type is not accepted for this call',
  422: 'The input was refused; `detail` names the field',
  429: 'Too many attempts; `Retry-After` says when to try again',
  503: 'The database is unavailable, or a prerequisite (the BTC rate) is missing',
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;
