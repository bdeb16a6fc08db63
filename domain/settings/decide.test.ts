import { describe, expect, it } from 'vitest';
import { settingsAggregate } from '../aggregates.ts';
import { given } from '../testing/given.ts';
import type { SettingsEvent } from './events.ts';

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

describe('pricing, at its edges', () => {
  const fee = (bps: number) => ({ type: 'FeeSet' as const, data: { fee_bps: bps } });
  const rate = { type: 'BtcRateSet' as const, data: { rate_cents: 100 } };

  it('records the rate alone when no fee is given', () => {
    given(settingsAggregate, [fee(300)])
      .when({ type: 'setPricing', rate_cents: 100 })
      .then([rate]);
  });

  it('takes a fee from 0 to exactly 100%, compared with the last one set', () => {
    given(settingsAggregate, [])
      .when({ type: 'setPricing', rate_cents: 100, fee_bps: 0 })
      .then([rate, fee(0)]);
    given(settingsAggregate, [])
      .when({ type: 'setPricing', rate_cents: 100, fee_bps: 10_000 })
      .then([rate, fee(10_000)]);
    given(settingsAggregate, [fee(300)])
      .when({ type: 'setPricing', rate_cents: 100, fee_bps: 300 })
      .then([rate]);
    given(settingsAggregate, [fee(300), { type: 'BtcRateSet', data: { rate_cents: 5 } }])
      .when({ type: 'setPricing', rate_cents: 100, fee_bps: 150 })
      .then([rate, fee(150)]);
  });

  it('refuses a negative or fractional fee, and a rate that is not a whole number of cents', () => {
    for (const bps of [-1, 1.5, Number.NaN])
      given(settingsAggregate, [])
        .when({ type: 'setPricing', rate_cents: 100, fee_bps: bps })
        .thenRefused('invalid_input', 'fee_percentage must be between 0 and 100');
    for (const cents of [-5, 1.5, Number.MAX_SAFE_INTEGER + 1])
      given(settingsAggregate, [])
        .when({ type: 'setPricing', rate_cents: cents })
        .thenRefused('invalid_input', 'btc_usd_rate must be more than 0');
  });

  it('keeps the fee when a rate is set, and the rate when a fee is set', () => {
    given(settingsAggregate, [rate]).when({ type: 'setPricing', rate_cents: 100, fee_bps: 150 }).then([rate]);
    const state = (events: SettingsEvent[]) => events.reduce(settingsAggregate.evolve, settingsAggregate.initial());
    expect(state([])).toEqual({ rate_cents: null, fee_bps: 150 });
    expect(state([rate])).toEqual({ rate_cents: 100, fee_bps: 150 });
    expect(state([rate, fee(300)])).toEqual({ rate_cents: 100, fee_bps: 300 });
  });
});
