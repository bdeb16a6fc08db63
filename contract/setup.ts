import { z } from 'zod';
import { userSchema } from './users.ts';

export const setupStatusSchema = z.strictObject({ valid: z.boolean() });

/** The first admin, signed in. */
export const firstAdminCreatedSchema = z.strictObject({ access_token: z.string(), token_type: z.literal('bearer'), user: userSchema });
