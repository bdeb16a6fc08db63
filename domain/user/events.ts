import { z } from 'zod';
import { email, role, uuid } from '../shared/schemas.ts';

/**
 * Facts about one account, stored on the stream `user:{user_id}`. Never a secret here: password hashes, TOTP
 * secrets, recovery codes and tokens live in their own tables. Personal data stays in the few named fields below.
 */
export const userEventSchemas = {
  UserRegistered: z.object({
    user_id: uuid,
    username: z.string(),
    email,
    full_name: z.string(),
    role,
    country: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  EmailVerified: z.object({ email }),
  RoleSwitched: z.object({ from: role, to: role }),
  TwoFactorEnabled: z.object({}),
  TwoFactorDisabled: z.object({}),
  /** The recovery codes were replaced by `count` new ones (the codes themselves are stored hashed, apart). */
  RecoveryCodesRegenerated: z.object({ count: z.number().int().min(1) }),
  UserSuspended: z.object({ reason: z.string().min(1) }),
  UserUnsuspended: z.object({}),
  UserUpdated: z.object({ full_name: z.string().optional(), email: email.optional(), role: role.optional() }),
  UserDeleted: z.object({}),
  PasswordReset: z.object({}),
  PasswordChanged: z.object({}),
  UserSignedIn: z.object({}),
  /** Too many wrong second-factor codes: code-gated actions are refused for a while. */
  TwoFactorLocked: z.object({ failures: z.number().int().min(1), window_minutes: z.number().int().min(1) }),
} as const;

type Schemas = typeof userEventSchemas;
export type UserEventType = keyof Schemas;
export type UserEvent = { [K in UserEventType]: { type: K; data: z.infer<Schemas[K]> } }[UserEventType];
