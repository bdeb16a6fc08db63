import { settingsAggregate } from '../../domain/aggregates.ts';
import { parsePercentToBps, parseRateToCents } from '../../domain/money.ts';
import type { AppDeps } from '../app-deps.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import { pricingInForce } from './queries.ts';

/**
 * An admin sets the BTC/USD rate and, when given, the fee (as typed: decimal text, turned into cents and basis
 * points here). Answers the pricing now in force, as the settings decider accepted it.
 */
export async function setPricing(
  deps: Pick<AppDeps, 'store' | 'database'>,
  input: { btc_usd_rate: string; fee_percentage?: string | undefined },
  meta: CommandMeta,
) {
  const command = {
    type: 'setPricing' as const,
    rate_cents: parseRateToCents(input.btc_usd_rate),
    fee_bps: input.fee_percentage ? parsePercentToBps(input.fee_percentage) : undefined,
  };
  await handle(deps.store, settingsAggregate, 'pricing', command, meta);
  return pricingInForce(deps.database.db);
}
