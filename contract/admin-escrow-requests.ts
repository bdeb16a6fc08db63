import { z } from 'zod';
import { escrowStatusSchema } from './escrows.ts';
import { expectedAddressField, optionalTxid } from './escrow-requests.ts';
import { totpCodeField, wholeNumber } from './input-fields.ts';

/** The admin console's calls on escrows and disputes (/api/admin/escrows, /api/admin/disputes). */

const statuses = escrowStatusSchema.options;

/** GET /api/admin/escrows: filter by status, search by id or e-mail, paged. */
export const adminEscrowListQuerySchema = z.object({
  status: z.enum(statuses, `status must be one of ${statuses.join(', ')}`).optional(),
  search: z.string().max(254, 'search must be at most 254 characters').optional(),
  ready: z
    .enum(['true', 'false'], 'ready must be true or false')
    .optional()
    .describe('true: only escrows ready to release (contract 7.4)'),
  refund_due: z
    .enum(['true', 'false'], 'refund_due must be true or false')
    .optional()
    .describe('true: only escrows whose terms were declined after payment, for the admins to refund'),
  limit: wholeNumber('limit')
    .pipe(z.number().min(1, 'limit must be from 1 to 100').max(100, 'limit must be from 1 to 100'))
    .default(25),
  offset: wholeNumber('offset').pipe(z.number().max(1_000_000, 'offset is too large')).default(0),
});

/** POST /api/admin/escrows/{id}/release and /refund. */
export const paymentNotesSchema = z.object({
  notes: z.string().max(5000).default(''),
  txid: optionalTxid,
  totp_code: totpCodeField,
  expected_address: expectedAddressField,
});

/** The three hex fields of a payment proof (SPV) as the admin's node prints them, and whether less may be accepted. */
const MAX_PROOF_HEX = 800_000;
const proofHex = (field: string, what: string) =>
  z
    .string()
    .trim()
    .max(MAX_PROOF_HEX, `${field} is too long`)
    .regex(/^[0-9a-fA-F\s]*$/, `${field} must be hexadecimal (${what})`)
    .optional()
    .transform((v) => (v ? v : undefined));
export const paymentProofFields = {
  tx_hex: proofHex('tx_hex', 'the raw transaction, as getrawtransaction prints it'),
  txout_proof: proofHex('txout_proof', 'as gettxoutproof prints it'),
  headers: proofHex('headers', '80-byte block headers that follow the block, one after another'),
  accept_partial: z.enum(['true', 'false'], 'accept_partial must be true or false').default('false'),
};
const bothProofParts = (v: {
  tx_hex?: string | undefined;
  txout_proof?: string | undefined;
  headers?: string | undefined;
}) => (v.tx_hex === undefined) === (v.txout_proof === undefined) && (v.headers === undefined || v.tx_hex !== undefined);
const bothProofPartsIssue = {
  message: 'tx_hex and txout_proof go together (headers only with them)',
  path: ['txout_proof'],
};

/**
 * POST /api/admin/escrows/{id}/verify-payment: verify (funded) or reject the marked payment. With `tx_hex` and
 * `txout_proof` (and `headers`), the payment is verified only if the proof proves it (contract.md section 9).
 */
export const verifyPaymentSchema = paymentNotesSchema
  .extend({ verified: z.enum(['true', 'false'], 'verified must be true or false'), ...paymentProofFields })
  .refine(bothProofParts, bothProofPartsIssue);

/** POST /api/admin/escrows/{id}/payment-proof: what a proof proves for this escrow, recording nothing. */
export const paymentProofCheckSchema = z
  .object({
    tx_hex: paymentProofFields.tx_hex,
    txout_proof: paymentProofFields.txout_proof,
    headers: paymentProofFields.headers,
    accept_partial: paymentProofFields.accept_partial,
  })
  .refine((v) => v.tx_hex !== undefined && v.txout_proof !== undefined, {
    message: 'tx_hex and txout_proof are required',
    path: ['tx_hex'],
  });

/** The answer of POST /api/admin/escrows/{id}/payment-proof. */
export const paymentProofAnswerSchema = z.strictObject({
  txid: z.string(),
  block_hash: z.string(),
  confirmations: z.number().int(),
  received_sats: z.number().int(),
  expected_sats: z.number().int(),
  overpaid_sats: z.number().int().describe('More than the amount arrived: by how much'),
  short_sats: z.number().int().describe('Less arrived (only with accept_partial=true): by how much'),
  work_judged: z.boolean().describe('false on test networks: the headers prove no work there'),
  proof_sha256: z.string(),
});

/** POST /api/admin/escrows/{id}/freeze and /unfreeze. */
export const freezeReasonSchema = z.object({ reason: z.string().max(1000).default('') });

/** POST /api/admin/escrows/{id}/cancel: an unpaid escrow ends, its address goes back to the pool; both parties read the reason. */
export const adminCancelSchema = z.object({
  reason: z
    .string('reason is required')
    .trim()
    .min(1, 'reason is required')
    .max(1000, 'reason must be at most 1000 characters'),
  totp_code: totpCodeField,
});

/** POST /api/admin/escrows/{id}/assign-address: a pool address by its id. */
export const assignAddressSchema = z.object({ address_id: z.uuid('address_id must be an address id') });

/** The path of POST /api/admin/disputes/{id}/resolve. */
export const disputeIdParam = z.object({ id: z.uuid('id must be a dispute id') });

/**
 * POST /api/admin/disputes/{id}/resolve and /api/admin/escrows/{id}/resolve: the outcome, and how the money moves if
 * it does. The outcome may be left out only where the parties agreed to a refund or split (contract 7.5): the
 * escrow's rules refuse a blank one otherwise, and default the resolution to the agreed one.
 */
export const resolveDisputeSchema = z.object({
  outcome: z.string('outcome must be text').trim().max(5000, 'outcome must be at most 5000 characters').default(''),
  resolution: z.enum(['release', 'refund', 'split'], 'resolution must be release, refund or split').optional(),
  // A form's empty field is no split percentage, not zero.
  seller_percent: z.preprocess((value) => (value === '' ? undefined : value), wholeNumber('seller_percent').optional()),
  txid: optionalTxid,
  totp_code: totpCodeField,
  expected_address: expectedAddressField,
  expected_refund_address: expectedAddressField,
});

/** A resolve form as the resolution commands take it: an empty resolution or percentage is none. */
export const resolutionOf = (form: z.infer<typeof resolveDisputeSchema>) => ({
  outcome: form.outcome,
  resolution: form.resolution ?? null,
  seller_percent: form.seller_percent ?? null,
  txid: form.txid,
  expected_address: form.expected_address,
  expected_refund_address: form.expected_refund_address,
});
