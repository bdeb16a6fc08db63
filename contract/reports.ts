import { z } from 'zod';

/** The books for admins: CSV reports and the Overview (/api/admin/reports). */

const day = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date like 2026-01-31`)
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${field} must be a real date`,
    )
    .optional();

/** `from` and `to` dates (UTC, both included); either may be left out. */
export const reportRangeQuery = z
  .object({ from: day('from'), to: day('to') })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { message: 'to must not be before from', path: ['to'] });

const monthSchema = z.strictObject({
  month: z.string(),
  escrows_created: z.number().int(),
  escrows_funded: z.number().int(),
  volume_sats: z.number().int(),
  volume_cents: z.number().int(),
  escrows_closed_with_fee: z.number().int(),
  fee_sats: z.number().int(),
  fee_cents: z.number().int(),
});

/** GET /api/admin/reports/overview: the same figures `verify-export --from --to` prints, and the state of things now. */
export const overviewSchema = z.strictObject({
  range: z.strictObject({ from: z.string().nullable(), to: z.string().nullable() }),
  escrows_created: z.number().int(),
  escrows_funded: z.number().int(),
  volume_sats: z.number().int(),
  volume_cents: z.number().int(),
  fee_sats: z.number().int(),
  fee_cents: z.number().int(),
  released_sats: z.number().int(),
  refunded_sats: z.number().int(),
  disputes_opened: z.number().int(),
  dispute_rate: z.number().describe('Disputes opened per escrow funded in the range'),
  median_marked_to_verified_seconds: z.number().int().nullable(),
  median_confirmed_to_released_seconds: z.number().int().nullable(),
  by_month: z.array(monthSchema),
  escrows_by_status: z
    .record(z.string(), z.number().int())
    .describe('Escrows opened in the range, by their status now'),
  pool: z.strictObject({ available: z.number().int(), assigned: z.number().int(), used: z.number().int() }),
});
export type Overview = z.infer<typeof overviewSchema>;
