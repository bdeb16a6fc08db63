import { z } from 'zod';

/** PUT /api/admin/btc-rate: the rate and the fee as typed (the domain reads them into cents and basis points). */
export const setPricingSchema = z.object({
  btc_usd_rate: z.string('btc_usd_rate is required').trim().min(1, 'btc_usd_rate is required'),
  fee_percentage: z.string().trim().optional(),
});
