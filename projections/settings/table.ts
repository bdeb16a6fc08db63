import type { ColumnType } from 'kysely';

type OptionalTime = ColumnType<Date | null, string | null, string | null>;

export interface SettingsTables {
  settings: {
    id: number;
    rate_cents: number | null;
    rate_set_at: OptionalTime;
    fee_bps: number;
    fee_set_at: OptionalTime;
  };
}
