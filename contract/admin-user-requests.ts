import { z } from 'zod';
import { adminCancelSchema } from './admin-escrow-requests.ts';
import { emailAddress } from './input-fields.ts';
import { passwordSchema } from './user-requests.ts';

/** What an admin changes about an account (/api/admin/users). */

/** The path of every call on one account. */
export const userIdParam = z.object({ id: z.uuid('id must be a user id') });

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** PUT /api/admin/users/{id}: only the non-empty fields change. */
export const userUpdateSchema = z.object({
  full_name: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(120).optional()),
  email: z.preprocess(emptyToUndefined, emailAddress('email').optional()),
  role: z.preprocess(emptyToUndefined, z.enum(['buyer', 'seller', 'admin']).optional()),
});

/** POST /api/admin/users/{id}/suspend. */
export const suspendUserSchema = z.object({ reason: z.string().trim().min(1, 'reason is required').max(1000) });

/**
 * POST /api/admin/users/{id}/cancel-unpaid-escrows: every unpaid escrow of a suspended account, with one reason (the
 * form of an admin's cancelling one escrow).
 */
export const cancelUnpaidEscrowsSchema = adminCancelSchema;

/** Its answer: the escrows cancelled (their addresses freed) and those left, each with why. */
export const cancelledUnpaidEscrowsSchema = z.object({
  detail: z.string(),
  cancelled: z.array(z.string()).describe('Ids of the escrows cancelled'),
  skipped: z
    .array(z.object({ id: z.string(), detail: z.string() }))
    .describe('Unpaid escrows that could not be cancelled now, and why'),
});

/** POST /api/admin/users/{id}/reset-password. */
export const resetPasswordSchema = z.object({ temporary_password: passwordSchema });
