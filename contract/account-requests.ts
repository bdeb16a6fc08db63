import { z } from 'zod';
import { requiredTotpCodeField } from './input-fields.ts';

/**
 * The account calls the server alone validates (the web app sends them without a form schema): kept apart from
 * user-requests.ts, which the sign-in and registration pages import as values, so those pages carry none of these.
 */

/** POST /api/auth/verify-2fa, /api/auth/disable-2fa and /api/auth/recovery-codes. */
export const totpCodeSchema = z.object({ totp_code: requiredTotpCodeField });

/** POST /api/auth/verify-email: the token of the mailed link. */
export const emailTokenSchema = z.object({ token: z.string().trim().min(10, 'token is required').max(200) });

/** POST /api/setup/status: the token of the setup link a fresh server prints. */
export const setupTokenSchema = z.object({ token: z.string().min(1, 'token is required').max(200) });

/** POST /api/profile/switch-role. */
export const switchRoleSchema = z.object({
  new_role: z.enum(['buyer', 'seller', 'admin'], 'new_role must be buyer or seller'),
});
