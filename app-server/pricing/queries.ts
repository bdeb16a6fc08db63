import type { Kysely } from 'kysely';
import { bpsToPercent, centsToNumber } from '../../domain/money.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { Database } from '../db/schema.ts';

/** The BTC/USD rate and the fee in force, and when each was set; refused (503) until an admin has set a rate. */
export async function pricingInForce(db: Kysely<Database>) {
  const row = await db.selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row?.rate_cents || !row.rate_set_at) {
    throw new DomainError(
      'not_ready',
      'The BTC/USD rate has not been set yet; an admin must set it before escrows can be created',
    );
  }
  return {
    btc_usd_rate: centsToNumber(row.rate_cents),
    fee_percentage: bpsToPercent(row.fee_bps),
    rate_set_at: row.rate_set_at.toISOString(),
    fee_set_at: row.fee_set_at?.toISOString() ?? null,
  };
}
