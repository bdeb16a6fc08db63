import type { ColumnType } from 'kysely';
import type { ProposalKind, Shipment } from '../../domain/escrow/events.ts';

type Time = ColumnType<Date, string, string>;
type OptionalTime = ColumnType<Date | null, string | null, string | null>;

export interface EscrowRow {
  id: string;
  product_service: string;
  description: string;
  amount_cents: number;
  fee_bps: number;
  fee_cents: number;
  total_cents: number;
  rate_cents: number;
  amount_sats: number;
  status: string;
  status_before_freeze: string | null;
  status_before_dispute: string | null;
  buyer_email: string;
  seller_email: string;
  creator_side: 'buyer' | 'seller';
  created_by: string;
  /** The account each side is bound to: the creator's from the start, the counterparty's once bound. */
  buyer_id: string | null;
  seller_id: string | null;
  assigned_address_id: string | null;
  assigned_address: string | null;
  deadline_days: number;
  payment_due_at: Time;
  payment_marked_at: OptionalTime;
  buyer_confirmed_at: OptionalTime;
  payout_address: string | null;
  refund_address: string | null;
  /** The address in force came with a BIP-322 signature. */
  payout_address_proven: boolean;
  refund_address_proven: boolean;
  payout_address_held_until: OptionalTime;
  refund_address_held_until: OptionalTime;
  open_dispute_id: string | null;
  /** Null: created before inspection periods (see the machine's context). */
  inspection_days: number | null;
  agreed_at: OptionalTime;
  declined_at: OptionalTime;
  decline_reason: string | null;
  shipped_at: OptionalTime;
  /** The shipment as the seller recorded it (method null: none yet). */
  shipment_method: Shipment['method'] | null;
  shipment_carrier: string | null;
  shipment_tracking: string | null;
  shipment_note: string | null;
  received_at: OptionalTime;
  inspection_ends_at: OptionalTime;
  /** The open settlement proposal, as the machine's context holds it (id null: none open). */
  open_proposal_id: string | null;
  open_proposal_kind: ProposalKind | null;
  open_proposal_side: 'buyer' | 'seller' | null;
  open_proposal_seller_percent: number | null;
  open_proposal_days: number | null;
  /** A refund or split both parties agreed to, for the admins to execute (id null: none). */
  settlement_proposal_id: string | null;
  settlement_kind: 'refund' | 'split' | null;
  settlement_seller_percent: number | null;
  payment_txid: string | null;
  /** What the payment proof showed (null when an admin checked the payment by hand). */
  payment_block_hash: string | null;
  payment_confirmations: number | null;
  payment_received_sats: number | null;
  payment_proof_sha256: string | null;
  payment_work_judged: boolean | null;
  payout_txid: string | null;
  seller_sats: number | null;
  buyer_sats: number | null;
  fee_sats: number | null;
  funded_at: OptionalTime;
  closed_at: OptionalTime;
  created_at: Time;
  updated_at: Time;
}

export interface EscrowsTables {
  escrows: EscrowRow;
}
