/**
 * The fields of contract section 7 (agreement, shipment, inspection, settlement proposals) that the escrow answer
 * carries once the server records those steps. Optional here so that every screen reads them the same way whether
 * or not an answer has them yet: an escrow without them shows no agreement, shipment or proposal.
 */
export interface Shipment {
  method: 'shipping' | 'digital' | 'service';
  carrier: string | null;
  tracking: string | null;
  note: string | null;
}

/** A settlement proposal (contract 7.5): its kind, where it stands, who made it, and its amounts in satoshis. */
export interface Proposal {
  id: string;
  kind: 'cancel' | 'refund' | 'split' | 'extend_deadline' | 'extend_inspection';
  status: 'open' | 'accepted' | 'declined' | 'withdrawn';
  proposed_by: 'buyer' | 'seller';
  seller_percent: number | null;
  days: number | null;
  note: string | null;
  seller_sats: number | null;
  buyer_sats: number | null;
  created_at: string;
}

export interface DealAnswerFields {
  /** null on escrows made before inspection periods. */
  inspection_days?: number | null;
  agreed_at?: string | null;
  declined_at?: string | null;
  decline_reason?: string | null;
  shipped_at?: string | null;
  shipment?: Shipment | null;
  received_at?: string | null;
  inspection_ends_at?: string | null;
  /** Receipt confirmed and the payout address set and not held: an admin may release now. */
  ready_to_release?: boolean;
  /** The counterparty declined after the payment was marked or verified: the admins refund. */
  refund_due?: boolean;
  proposals?: readonly Proposal[];
}
