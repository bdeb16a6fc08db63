import { z } from 'zod';
import { wholeNumber } from './input-fields.ts';

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
  deadline_days: wholeNumber('deadline_days')
    .pipe(z.number().min(1, 'deadline_days must be from 1 to 90').max(90, 'deadline_days must be from 1 to 90'))
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
