import type { ColumnType } from 'kysely';

export interface ReviewRow {
  id: string;
  name: string;
  email: string | null;
  country: string;
  rating: number;
  text: string;
  escrow_id: string | null;
  verified_deal: boolean;
  status: 'pending' | 'approved' | 'edited_by_admin' | 'rejected';
  /** status is approved or edited_by_admin: shown to the public. */
  published: boolean;
  edited_by_admin: boolean;
  admin_edit_note: string | null;
  rejection_reason: string | null;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
}

export interface ReviewsTables {
  reviews: ReviewRow;
}
