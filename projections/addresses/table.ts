import type { ColumnType } from 'kysely';

export interface AddressRow {
  id: string;
  address_string: string;
  network: string;
  status: 'available' | 'assigned' | 'used';
  assigned_to_escrow_id: string | null;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
}

export interface AddressesTables {
  addresses: AddressRow;
}
