import { z } from 'zod';

const isoTime = z.string().describe('ISO 8601 time, UTC');

/** An account as the API shows it: never a secret. */
export const userSchema = z.strictObject({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  full_name: z.string(),
  role: z.enum(['buyer', 'seller', 'admin']),
  country: z.string().nullable(),
  phone: z.string().nullable(),
  created_at: isoTime,
  is_frozen: z.boolean(),
  suspension_reason: z.string().nullable(),
  totp_enabled: z.boolean(),
  must_change_password: z
    .boolean()
    .describe(
      'Signed in with a temporary password (an admin reset it): only me, change-password and logout work until it is changed',
    ),
});
export type User = z.infer<typeof userSchema>;

/** The signed-in user as GET /api/auth/me shows them: the account, and what only its owner sees. */
export const meSchema = userSchema.extend({
  recovery_codes_left: z.number().int().min(0).nullable().describe('Unused recovery codes; null while 2FA is off'),
});
export type Me = z.infer<typeof meSchema>;

/** A new session: the bearer token to send as `Authorization: Bearer …`, and who it belongs to. */
export const sessionSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: userSchema,
});

export const registeredSchema = z.strictObject({ detail: z.string(), user_id: z.string() });

export const twoFactorSecretSchema = z.strictObject({
  secret: z.string().describe('Base32 TOTP secret, shown once'),
  otpauth_url: z.string(),
  qr_code_url: z.string().describe('The otpauth URL as a QR code image (a data: URL drawn by the server)'),
});

export const twoFactorEnabledSchema = z.strictObject({
  detail: z.string(),
  recovery_codes: z.array(z.string()).describe('Single-use codes, shown once'),
});

/** POST /api/auth/recovery-codes: the new codes, which replace every old one. */
export const recoveryCodesSchema = z.strictObject({
  detail: z.string(),
  recovery_codes: z.array(z.string()).describe('Single-use codes, shown once; the old ones no longer work'),
});

export const usersSchema = z.array(userSchema);
