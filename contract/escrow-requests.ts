import { z } from 'zod';
import { emailAddress, totpCodeField, wholeNumber } from './input-fields.ts';

const text = (field: string, max: number) =>
  z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);
const email = (field: string) => emailAddress(field).optional();

/** POST /api/escrows, shared by the server and the create form. Fee, total and BTC are never taken from a client. */
export const createEscrowSchema = z.object({
  product_service: text('product_service', 200),
  description: text('description', 5000),
  amount_usd: z.union([z.number(), z.string()], 'amount_usd is required'),
  deadline_days: wholeNumber('deadline_days')
    .pipe(z.number().min(1, 'deadline_days must be from 1 to 90').max(90, 'deadline_days must be from 1 to 90'))
    .default(7),
  inspection_days: wholeNumber('inspection_days')
    .pipe(z.number().min(0, 'inspection_days must be from 0 to 30').max(30, 'inspection_days must be from 0 to 30'))
    .default(3),
  seller_email: email('seller_email'),
  buyer_email: email('buyer_email'),
  totp_code: totpCodeField,
});

/** The path of every call on one escrow, the parties' and the admins'. */
export const escrowIdParam = z.object({ id: z.uuid('id must be an escrow id') });

/** The transaction id of a payment, when the admin gives one: 64 hexadecimal characters, any case. */
export const optionalTxid = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v.toLowerCase() : null))
  .pipe(
    z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'txid must be 64 hexadecimal characters')
      .nullable(),
  );

/** The address the admin was shown; if the escrow's address differs now, the action is refused (409). */
export const expectedAddressField = z.string().trim().max(200).optional();

/** POST /api/escrows/{id}/payout-address: the address is checked for the server's network by the route. */
export const payoutAddressSchema = z.object({
  address: z.string('address is required').max(200),
  totp_code: totpCodeField,
  /** A BIP-322 simple signature (base64) of GET /api/escrows/{id}/address-message's message: the address is then proven. */
  signature: z.string().trim().max(1000, 'signature is too long').optional(),
});

/** GET /api/escrows/{id}/address-message: the address the party means to give. */
export const addressMessageQuerySchema = z.object({
  address: z.string().trim().max(200, 'address is too long').default(''),
});
/** Its answer: the exact message to sign, for which side. */
export const addressMessageSchema = z.strictObject({
  message: z.string(),
  side: z.enum(['buyer', 'seller']),
  address: z.string(),
});

/** POST /api/escrows/{id}/mark-paid, a multipart form: the evidence file's bytes are checked by the server. */
export const markPaidSchema = z.object({
  notes: z.string().max(5000, 'notes must be at most 5000 characters').default(''),
  file: z
    .union([z.instanceof(File), z.literal('')], 'file must be a file upload')
    .optional()
    // The OpenAPI document reads this as an upload; plain zod metadata, so the web app needs no OpenAPI library.
    .meta({ type: 'string', format: 'binary' }),
});

/** POST /api/escrows/{id}/open-dispute. */
export const openDisputeSchema = z.object({ reason: z.string('reason is required').max(5000) });

/** POST /api/escrows/{id}/decline: the counterparty declines the terms, with a reason. */
export const declineSchema = z.object({ reason: text('reason', 1000) });

const optionalText = (field: string, max: number) =>
  z
    .string(`${field} must be text`)
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

/** POST /api/escrows/{id}/ship (contract 7.2): a carrier is required for `shipping`. */
export const shipSchema = z
  .object({
    method: z.enum(['shipping', 'digital', 'service'], 'method must be one of shipping, digital, service'),
    carrier: optionalText('carrier', 60),
    tracking: optionalText('tracking', 100),
    note: optionalText('note', 1000),
  })
  .refine((s) => s.method !== 'shipping' || s.carrier !== null, {
    message: 'carrier is required when the method is shipping',
    path: ['carrier'],
  });

const PROPOSAL_KINDS = ['cancel', 'refund', 'split', 'extend_deadline', 'extend_inspection'] as const;

/**
 * POST /api/escrows/{id}/proposals (contract 7.5): `seller_percent` (1-99) for a split, `days` (1-30) for an
 * extension; which kinds fit the escrow now, and whether the numbers are given, is the escrow's rules to say.
 */
export const proposeSchema = z.object({
  kind: z.enum(PROPOSAL_KINDS, `kind must be one of ${PROPOSAL_KINDS.join(', ')}`),
  seller_percent: wholeNumber('seller_percent').nullish(),
  days: wholeNumber('days').nullish(),
  note: optionalText('note', 1000),
});

/** The path of an answer to one proposal: POST /api/escrows/{id}/proposals/{pid}/accept, /decline, /withdraw. */
export const proposalIdParam = escrowIdParam.extend({ pid: z.uuid('pid must be a proposal id') });

/** POST /api/escrows/{id}/proposals/{pid}/decline: the reason is optional. */
export const declineProposalSchema = z.object({ reason: optionalText('reason', 1000) });

/** GET /api/evidence/{id}. */
export const evidenceIdParam = z.object({ id: z.uuid('id must be an evidence id') });
