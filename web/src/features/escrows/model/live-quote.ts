import type { Rate } from '../../../../../contract/pricing.ts';
import { parsePercentToBps, parseUsdToCents, quote, usdNumberToCents } from '../../../../../domain/money.ts';

/** What the quote needs of the rate and fee in force (the API's answer schema). */
export type Pricing = Pick<Rate, 'btc_usd_rate' | 'fee_percentage'>;

export type LiveQuote =
  | { ok: true; amount_cents: number; fee_cents: number; total_cents: number; amount_sats: number }
  | { ok: false; error: string | null };

/**
 * The figures the server will fix when the escrow is created, computed as it computes them (domain/money.ts, in
 * integers): the fee at the server's percentage, the total, and the satoshis at the current rate, rounded up.
 * `error` is null while nothing is typed yet.
 */
export function liveQuote(amountText: string, pricing: Pricing): LiveQuote {
  if (!amountText.trim()) return { ok: false, error: null };
  try {
    const amount_cents = parseUsdToCents(amountText, 'The amount');
    const figures = quote({
      amount_cents,
      fee_bps: parsePercentToBps(String(pricing.fee_percentage)),
      rate_cents: usdNumberToCents(pricing.btc_usd_rate),
    });
    return { ok: true, amount_cents, ...figures };
  } catch (error) {
    return { ok: false, error: (error as Error).message.replace(/^amount_usd\b/, 'The amount') };
  }
}
