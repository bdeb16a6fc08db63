import { defineProjection } from '../projection.ts';

export const DEFAULT_FEE_BPS = 150;

/** The pricing in force: the BTC/USD rate (none until an admin sets one) and the fee (1.5% until changed). */
export const settingsProjection = defineProjection({
  name: 'settings',
  tables: [{ name: 'settings', key: ['id'] }],
  handles: ['BtcRateSet', 'FeeSet'],
  async apply(store, event) {
    const row = (await store.get('settings', [1])) ?? {
      id: 1,
      rate_cents: null,
      rate_set_at: null,
      fee_bps: DEFAULT_FEE_BPS,
      fee_set_at: null,
    };
    if (event.type === 'BtcRateSet') {
      await store.put('settings', {
        ...row,
        rate_cents: event.data.rate_cents,
        rate_set_at: event.occurred_at,
      });
    } else if (event.type === 'FeeSet') {
      await store.put('settings', { ...row, fee_bps: event.data.fee_bps, fee_set_at: event.occurred_at });
    }
  },
});
