import { describe, it } from 'vitest';
import { settingsAggregate } from '../aggregates.ts';
import { given } from '../testing/given.ts';

describe('pricing', () => {
  it('records the rate, and the fee only when it changes', () => {
    given(settingsAggregate, [])
      .when({ type: 'setPricing', rate_cents: 6_543_210, fee_bps: 150 })
      .then([{ type: 'BtcRateSet', data: { rate_cents: 6_543_210 } }]);
    given(settingsAggregate, [])
      .when({ type: 'setPricing', rate_cents: 6_543_210, fee_bps: 200 })
      .then([
        { type: 'BtcRateSet', data: { rate_cents: 6_543_210 } },
        { type: 'FeeSet', data: { fee_bps: 200 } },
      ]);
  });

  it('refuses a rate of zero and a fee over 100%', () => {
    given(settingsAggregate, [])
      .when({ type: 'setPricing', rate_cents: 0 })
      .thenRefused('invalid_input', 'btc_usd_rate');
    given(settingsAggregate, [])
      .when({ type: 'setPricing', rate_cents: 1, fee_bps: 10_001 })
      .thenRefused('invalid_input', 'fee_percentage');
  });
});
