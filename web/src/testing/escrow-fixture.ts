import type { Escrow as EscrowAnswer } from '../../../contract/escrows.ts';
import type { DealAnswerFields } from '../lib/deal-answer.ts';

type Escrow = EscrowAnswer & DealAnswerFields;

/** An escrow as the API answers it, for the tests of every feature that shows one: a buyer-created $1,000.00 deal at $50,000 per BTC, waiting for payment. */
export function escrowFixture(overrides: Partial<Escrow> = {}): Escrow {
  return {
    id: '0b8a3c1e-5f7d-4c2a-9e61-2d4f8a7b9c10',
    side: 'buyer',
    allowed_actions: ['request_payment', 'set_refund_address', 'open_dispute', 'cancel', 'post_message'],
    product_service: 'Mirrorless camera',
    description: 'Used mirrorless camera body with two batteries, shipped insured within 3 days.',
    amount_usd: 1000,
    escrow_fee: 15,
    total_usd: 1015,
    fee_percentage: 1.5,
    btc_usd_rate: 50000,
    amount_btc: 0.0203,
    amount_sats: 2_030_000,
    status: 'pending_payment',
    buyer_email: 'ann@example.com',
    seller_email: 'sam@example.com',
    buyer_id: 'user-ann',
    seller_id: null,
    created_by: 'user-ann',
    creator_side: 'buyer',
    assigned_address: null,
    deadline_days: 7,
    payment_due_at: '2026-12-01T12:00:00.000Z',
    payment_marked_at: null,
    payment_rejected_at: null,
    buyer_confirmed_at: null,
    payout_address: null,
    refund_address: null,
    payout_address_held_until: null,
    refund_address_held_until: null,
    payment_txid: null,
    payment_proof: null,
    payout_address_proven: false,
    refund_address_proven: false,
    payout_txid: null,
    seller_sats: null,
    buyer_sats: null,
    fee_sats: null,
    funded_at: null,
    dispute: null,
    created_at: '2026-11-24T12:00:00.000Z',
    updated_at: '2026-11-24T12:00:00.000Z',
    ...overrides,
  };
}
