import { invalidInput } from '../shared/errors.ts';
import type { SettingsEvent } from './events.ts';

export interface SettingsState {
  rate_cents: number | null;
  fee_bps: number;
}

export const initialSettingsState = (): SettingsState => ({ rate_cents: null, fee_bps: 150 });

export function evolveSettings(state: SettingsState, event: SettingsEvent): SettingsState {
  return event.type === 'BtcRateSet'
    ? { ...state, rate_cents: event.data.rate_cents }
    : { ...state, fee_bps: event.data.fee_bps };
}

export type SettingsCommand = { type: 'setPricing'; rate_cents: number; fee_bps?: number | undefined };

/** A rate must be positive and the fee 0-100%; only what changes becomes an event. */
export function decideSettings(command: SettingsCommand, state: SettingsState): SettingsEvent[] {
  if (!Number.isSafeInteger(command.rate_cents) || command.rate_cents <= 0)
    throw invalidInput('btc_usd_rate must be more than 0');
  const events: SettingsEvent[] = [{ type: 'BtcRateSet', data: { rate_cents: command.rate_cents } }];
  if (command.fee_bps !== undefined) {
    if (!Number.isInteger(command.fee_bps) || command.fee_bps < 0 || command.fee_bps > 10_000) {
      throw invalidInput('fee_percentage must be between 0 and 100');
    }
    if (command.fee_bps !== state.fee_bps) events.push({ type: 'FeeSet', data: { fee_bps: command.fee_bps } });
  }
  return events;
}
