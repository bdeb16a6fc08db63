import { z } from 'zod';
import { userSchema } from './users.ts';

export const setupStatusSchema = z.strictObject({
  valid: z.boolean(),
  admin_2fa_required: z
    .boolean()
    .describe('ADMIN_2FA_REQUIRED: an admin without 2FA can sign in but use no admin power'),
});

/** The first admin, signed in. */
export const firstAdminCreatedSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: userSchema,
});
