import type { ColumnType } from 'kysely';

export interface DisputeRow {
  id: string;
  escrow_id: string;
  reason: string;
  opened_by_side: 'buyer' | 'seller';
  opened_by: string;
  opened_at: ColumnType<Date, string, string>;
  status: 'open' | 'resolved';
  outcome: string | null;
  resolution: 'release' | 'refund' | 'split' | null;
  seller_percent: number | null;
  resolved_by: string | null;
  resolved_at: ColumnType<Date | null, string | null, string | null>;
}

export interface DisputesTables {
  disputes: DisputeRow;
}
