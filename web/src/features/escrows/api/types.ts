/**
 * The escrow answers this feature reads (GET /api/escrows, /api/escrows/{id}), declared here until the API's answer
 * schemas are shared; swap them for those in this one place.
 */
export type EscrowStatus = 'pending_payment' | 'funded' | 'released' | 'disputed' | 'frozen' | 'cancelled' | 'refunded';
export type EscrowSide = 'buyer' | 'seller' | 'admin';

export interface EscrowDispute {
  id: string;
  reason: string;
  opened_by_side: 'buyer' | 'seller';
  opened_at: string;
  status: 'open' | 'resolved';
  outcome: string | null;
  resolution: 'release' | 'refund' | 'split' | null;
  seller_percent: number | null;
  resolved_at: string | null;
}

export interface Escrow {
  id: string;
  /** The caller's side in this escrow. */
  side: EscrowSide;
  product_service: string;
  description: string;
  amount_usd: number;
  escrow_fee: number;
  total_usd: number;
  fee_percentage: number;
  btc_usd_rate: number;
  amount_btc: number;
  amount_sats: number;
  status: EscrowStatus;
  buyer_email: string;
  seller_email: string;
  created_by: string;
  creator_side: 'buyer' | 'seller';
  assigned_address: string | null;
  deadline_days: number;
  payment_due_at: string;
  payment_marked_at: string | null;
  /** When an admin verified the payment (null until then, also while disputed or frozen before that). */
  funded_at: string | null;
  payment_rejected_at: string | null;
  buyer_confirmed_at: string | null;
  payout_address: string | null;
  refund_address: string | null;
  payment_txid: string | null;
  payout_txid: string | null;
  seller_sats: number | null;
  buyer_sats: number | null;
  fee_sats: number | null;
  dispute: EscrowDispute | null;
  created_at: string;
  updated_at: string;
}
