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
  agreed_at?: string | null;
  shipped_at?: string | null;
  shipment?: Shipment | null;
  inspection_days?: number;
  inspection_ends_at?: string | null;
  proposals?: readonly Proposal[];
}
