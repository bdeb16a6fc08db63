import { z } from 'zod';
import { totpCodeField } from './input-fields.ts';

/** API tokens (/api/tokens): a named bearer token with `read` and/or `write`, never admin powers. */

const isoTime = z.string().describe('ISO 8601 time, UTC');

export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** Live tokens one account may hold. */
export const MAX_API_TOKENS = 20;

/** POST /api/tokens (JSON). */
export const createApiTokenSchema = z.object({
  name: z.string('name is required').trim().min(1, 'name is required').max(80, 'name must be at most 80 characters'),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, 'scopes must each be read or write'), 'scopes must be a list: read, write or both')
    .min(1, 'scopes must name read, write or both')
    .max(10, 'scopes must name read, write or both')
    .transform((scopes) => [...new Set(scopes)]),
  totp_code: totpCodeField.describe('A current 2FA code, when 2FA is on'),
});

export const apiTokenIdParam = z.object({ id: z.uuid('id must be an API token id') });

export const apiTokenSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  created_at: isoTime,
  last_used_at: isoTime.nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokensSchema = z.array(apiTokenSchema);

/** The answer to a creation: the token itself, shown this once (only its hash is kept). */
export const createdApiTokenSchema = z.strictObject({
  token: z.string().describe('Send as Authorization: Bearer <token>; shown once'),
  api_token: apiTokenSchema,
});
