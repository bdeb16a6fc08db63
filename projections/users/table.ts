import type { ColumnType } from 'kysely';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  email_verified: boolean;
  full_name: string;
  role: 'buyer' | 'seller' | 'admin';
  country: string | null;
  phone: string | null;
  is_frozen: boolean;
  suspension_reason: string | null;
  totp_enabled: boolean;
  last_sign_in_at: ColumnType<Date | null, string | null, string | null>;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
}

export interface UsersTables {
  users: UserRow;
}
