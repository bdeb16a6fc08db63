import type { Selectable } from 'kysely';
import { bpsToPercent, centsToNumber, satsToBtcNumber } from '../../domain/money.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import type { EscrowActor } from '../../domain/escrow/decide.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An escrow as the API shows it: money as 2- and 8-decimal numbers next to the integer satoshis. */
export function escrowView(e: Selectable<EscrowRow>, side: EscrowActor) {
  return {
    id: e.id,
    product_service: e.product_service,
    description: e.description,
    amount_usd: centsToNumber(e.amount_cents),
    escrow_fee: centsToNumber(e.fee_cents),
    total_usd: centsToNumber(e.total_cents),
    fee_percentage: bpsToPercent(e.fee_bps),
    btc_usd_rate: centsToNumber(e.rate_cents),
    amount_btc: satsToBtcNumber(e.amount_sats),
    amount_sats: e.amount_sats,
    status: e.status,
    buyer_email: e.buyer_email,
    seller_email: e.seller_email,
    buyer_id: e.buyer_id,
    created_by: e.created_by,
    creator_side: e.creator_side,
    side,
    assigned_address: e.assigned_address,
    deadline_days: e.deadline_days,
    payment_due_at: e.payment_due_at.toISOString(),
    payment_marked_at: iso(e.payment_marked_at),
    buyer_confirmed_at: iso(e.buyer_confirmed_at),
    payout_address: e.payout_address,
    refund_address: e.refund_address,
    payment_txid: e.payment_txid,
    payout_txid: e.payout_txid,
    seller_sats: e.seller_sats,
    buyer_sats: e.buyer_sats,
    fee_sats: e.fee_sats,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}
