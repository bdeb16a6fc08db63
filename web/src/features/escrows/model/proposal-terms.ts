import { payout, usdNumberToCents } from '../../../../../domain/money.ts';
import type { Escrow } from '../api/types.ts';
import type { ProposalKind } from '../api/proposals.ts';

type Money = Pick<Escrow, 'amount_sats' | 'amount_usd' | 'escrow_fee' | 'total_usd'>;

/** What each side would receive from a split: satoshis as the server computes them, and their share of the amount. */
export function splitShares(escrow: Money, sellerPercent: number) {
  const shares = payout(
    'split',
    {
      amount_sats: escrow.amount_sats,
      fee_cents: usdNumberToCents(escrow.escrow_fee),
      total_cents: usdNumberToCents(escrow.total_usd),
    },
    sellerPercent,
  );
  const amountCents = usdNumberToCents(escrow.amount_usd);
  const sellerCents = Math.floor((amountCents * sellerPercent) / 100);
  return {
    seller_sats: shares.seller_sats,
    buyer_sats: shares.buyer_sats,
    seller_cents: sellerCents,
    buyer_cents: amountCents - sellerCents,
  };
}

/** The proposal kinds in words, as the form offers them and the list shows them. */
export const KIND_LABELS: Record<ProposalKind, string> = {
  cancel: 'Cancel the escrow (before payment)',
  refund: 'Refund the buyer in full',
  split: 'Split the money',
  extend_deadline: 'Extend the payment deadline',
  extend_inspection: 'Extend the inspection period',
};
