import { z } from 'zod';

const text = (field: string, max: number) =>
  z.string(`${field} is required`).trim().min(1, `${field} is required`).max(max, `${field} must be at most ${max} characters`);
const email = (field: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email(`${field} must be a valid e-mail address`))
    .optional();

/** POST /api/escrows, shared by the server and the create form. Fee, total and BTC are never taken from a client. */
export const createEscrowSchema = z.object({
  product_service: text('product_service', 200),
  description: text('description', 5000),
  amount_usd: z.union([z.number(), z.string()], 'amount_usd is required'),
  deadline_days: z.coerce
    .number('deadline_days must be a number')
    .int('deadline_days must be a whole number')
    .min(1, 'deadline_days must be from 1 to 90')
    .max(90, 'deadline_days must be from 1 to 90')
    .default(7),
  seller_email: email('seller_email'),
  buyer_email: email('buyer_email'),
  totp_code: z
    .string()
    .trim()
    .max(32)
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** GET /api/escrows/{id}/history: one entry of the parties' timeline (domain/escrow/history.ts). */
export const escrowHistoryEntrySchema = z.object({
  version: z.number().int(),
  occurred_at: z.string(),
  type: z.string(),
  summary: z.string(),
  actor_side: z.enum(['buyer', 'seller', 'admin', 'system']),
  reason: z.string().nullable(),
  outcome: z.string().nullable(),
  address: z.string().nullable(),
  txid: z.string().nullable(),
  seller_percent: z.number().int().nullable(),
  seller_sats: z.number().int().nullable(),
  buyer_sats: z.number().int().nullable(),
  evidence_files: z.number().int().nullable(),
});
export type EscrowHistoryEntry = z.infer<typeof escrowHistoryEntrySchema>;
