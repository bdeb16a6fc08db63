import { z } from 'zod';
import { money } from '../shared/schemas.ts';

/** Operator settings, stored on the single stream `settings:pricing`. */
export const settingsEventSchemas = {
  /** BTC/USD in cents: 6543210 means 1 BTC = 65,432.10 USD. */
  BtcRateSet: z.object({ rate_cents: money.min(1) }),
  /** Fee in basis points: 150 means 1.5%. */
  FeeSet: z.object({ fee_bps: money.max(10_000) }),
} as const;

type Schemas = typeof settingsEventSchemas;
export type SettingsEventType = keyof Schemas;
export type SettingsEvent = {
  [K in SettingsEventType]: { type: K; data: z.infer<Schemas[K]> };
}[SettingsEventType];
