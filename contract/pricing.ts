import { z } from 'zod';

/** The BTC/USD rate and the fee in force, set by an admin. */
export const rateSchema = z.strictObject({
  btc_usd_rate: z.number().describe('US dollars per BTC, 2 decimals'),
  fee_percentage: z.number().describe('Percent, 2 decimals'),
  rate_set_at: z.string().describe('When the rate was set: its age'),
  fee_set_at: z.string().nullable(),
});
export type Rate = z.infer<typeof rateSchema>;
