/** Shapes of the server's answers the web app reads. */
import type { PgpKeyInfo } from '../../../contract/site.ts';

export type Role = 'buyer' | 'seller' | 'admin';

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  email_verified: boolean;
  full_name: string;
  role: Role;
  country: string | null;
  phone: string | null;
  totp_enabled: boolean;
  /** When the account was opened (ISO 8601). */
  created_at: string;
}

export interface PublicReview {
  id: string;
  name: string;
  country: string;
  rating: number;
  text: string;
  created_at: string;
  edited_by_admin: boolean;
  verified_deal: boolean;
}

export interface ReviewStats {
  average_rating: number;
  total: number;
  distribution: Record<string, number>;
}

export interface SiteInfo {
  support_email: string;
  support_hours: string;
  pgp_key_configured: boolean;
  /** Which addresses the server accepts: payout and refund addresses are checked in the browser for the same. */
  bitcoin_network: 'mainnet' | 'testnet' | 'signet' | 'regtest';
}

export interface PgpKey extends PgpKeyInfo {
  support_email: string;
}

export interface Pricing {
  btc_usd_rate: number;
  fee_percentage: number;
  rate_set_at: string;
}
