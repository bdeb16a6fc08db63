import { z } from 'zod';
import { escrowStatusSchema } from './escrows.ts';
import { expectedAddressField, optionalTxid, totpField } from './escrow-requests.ts';
import { wholeNumber } from './input-fields.ts';

/** The admin console's calls on escrows and disputes (/api/admin/escrows, /api/admin/disputes). */

const statuses = escrowStatusSchema.options;

/** GET /api/admin/escrows: filter by status, search by id or e-mail, paged. */
export const adminEscrowListQuerySchema = z.object({
  status: z.enum(statuses, `status must be one of ${statuses.join(', ')}`).optional(),
  search: z.string().max(254, 'search must be at most 254 characters').optional(),
  limit: wholeNumber('limit').pipe(z.number().min(1, 'limit must be from 1 to 100').max(100, 'limit must be from 1 to 100')).default(25),
  offset: wholeNumber('offset').pipe(z.number().max(1_000_000, 'offset is too large')).default(0),
});

/** POST /api/admin/escrows/{id}/release and /refund. */
export const paymentNotesSchema = z.object({ notes: z.string().max(5000).default(''), txid: optionalTxid, totp_code: totpField, expected_address: expectedAddressField });

/** POST /api/admin/escrows/{id}/verify-payment: verify (funded) or reject the marked payment. */
export const verifyPaymentSchema = paymentNotesSchema.extend({ verified: z.enum(['true', 'false'], 'verified must be true or false') });

/** POST /api/admin/escrows/{id}/freeze and /unfreeze. */
export const freezeReasonSchema = z.object({ reason: z.string().max(1000).default('') });

/** POST /api/admin/escrows/{id}/cancel: an unpaid escrow ends, its address goes back to the pool; both parties read the reason. */
export const adminCancelSchema = z.object({ reason: z.string('reason is required').trim().min(1, 'reason is required').max(1000, 'reason must be at most 1000 characters'), totp_code: totpField });

/** POST /api/admin/escrows/{id}/assign-address: a pool address by its id. */
export const assignAddressSchema = z.object({ address_id: z.uuid('address_id must be an address id') });

/** The path of POST /api/admin/disputes/{id}/resolve. */
export const disputeIdParam = z.object({ id: z.uuid('id must be a dispute id') });

/** POST /api/admin/disputes/{id}/resolve: the outcome, and how the money moves if it does. */
export const resolveDisputeSchema = z.object({
  outcome: z.string('outcome is required').trim().min(1, 'outcome is required').max(5000),
  resolution: z.enum(['release', 'refund', 'split'], 'resolution must be release, refund or split').optional(),
  // A form's empty field is no split percentage, not zero.
  seller_percent: z.preprocess((value) => (value === '' ? undefined : value), wholeNumber('seller_percent').optional()),
  txid: optionalTxid,
  totp_code: totpField,
  expected_address: expectedAddressField,
  expected_refund_address: expectedAddressField,
});
