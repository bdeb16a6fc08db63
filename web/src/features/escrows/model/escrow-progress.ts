import type { Escrow, EscrowStatus } from '../api/types.ts';
import { splitOf } from '../../../lib/escrow-split.ts';
import { needsMyAction } from './escrow-actions.ts';

type Facts = Pick<Escrow, 'status' | 'side' | 'payment_marked_at' | 'payment_rejected_at' | 'buyer_confirmed_at' | 'funded_at' | 'dispute'>;

const FINAL: ReadonlySet<EscrowStatus> = new Set(['released', 'refunded', 'cancelled']);
export const isFinal = (status: EscrowStatus) => FINAL.has(status);

/** The second line under a status badge: what the status alone hides (contract section 6), or null. */
export function statusNote(escrow: Facts): string | null {
  switch (escrow.status) {
    case 'pending_payment':
      if (escrow.payment_marked_at) return 'Payment marked, being checked by an admin';
      if (escrow.payment_rejected_at) return escrow.side === 'buyer' ? 'Payment not confirmed: mark it as paid again' : 'Payment not confirmed; waiting for the buyer to mark it again';
      return null;
    case 'funded':
      return escrow.buyer_confirmed_at ? 'Receipt confirmed by the buyer' : null;
    case 'disputed':
      return escrow.dispute ? `Dispute opened by the ${escrow.dispute.opened_by_side}` : null;
    case 'released': {
      const split = splitOf(escrow);
      return split ? `Split after a dispute: ${split.seller}% to the seller, ${split.buyer}% to the buyer` : null;
    }
    default:
      return null;
  }
}

export const DASHBOARD_FILTERS = ['needs_action', 'active', 'closed', 'all'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];
export const FILTER_LABELS: Record<DashboardFilter, string> = { needs_action: 'Needs my action', active: 'Active', closed: 'Closed', all: 'All' };

/** The dashboard's filters: what waits on me, what is still open, what has ended, everything. */
export function matchesFilter(escrow: Parameters<typeof needsMyAction>[0] & Facts, user: { id: string }, filter: DashboardFilter): boolean {
  switch (filter) {
    case 'needs_action':
      return needsMyAction(escrow, user);
    case 'active':
      return !isFinal(escrow.status);
    case 'closed':
      return isFinal(escrow.status);
    case 'all':
      return true;
    default: {
      const unknown: never = filter;
      return unknown;
    }
  }
}

type StepFacts = Facts & Pick<Escrow, 'assigned_address' | 'payout_address' | 'refund_address'>;

/** The one next step for this user, in words: what they do now, or whom the escrow waits for. */
export function nextStepFor(escrow: StepFacts): string {
  const { side, status } = escrow;
  if (side === 'admin') return 'You are viewing this escrow as an admin; act on it from the admin console.';
  const buyer = side === 'buyer';
  switch (status) {
    case 'pending_payment':
      if (!escrow.assigned_address) return buyer ? 'Click Make Payment to get the address to pay to.' : 'Waiting for the buyer to request a payment address and pay.';
      if (escrow.payment_marked_at) return buyer ? 'An admin is checking your payment on the chain; nothing to do until then.' : 'The buyer marked the payment as sent; an admin is checking it on the chain.';
      if (escrow.payment_rejected_at) {
        return buyer
          ? 'Your payment was not found on the chain. Check that the exact amount went to the payment address, then click Mark as Paid again.'
          : 'The payment the buyer marked was not found on the chain; waiting for the buyer to mark it again.';
      }
      return buyer ? 'Send the exact amount to the payment address, then click Mark as Paid.' : 'Waiting for the buyer to pay.';
    case 'funded':
      if (buyer) return escrow.buyer_confirmed_at ? 'You confirmed receipt; an admin will release the money to the seller.' : 'The money is held. Click Confirm Receipt once you have what you paid for.';
      if (!escrow.payout_address) return 'The money is held. Set your payout address, then deliver.';
      return escrow.buyer_confirmed_at ? 'The buyer confirmed receipt; an admin will release the money to your payout address.' : 'The money is held. Deliver; once the buyer confirms receipt, an admin releases it to you.';
    case 'disputed':
      if (buyer && !escrow.refund_address) return 'An admin is reviewing the dispute. Set a refund address in case money comes back to you.';
      if (!buyer && !escrow.payout_address) return 'An admin is reviewing the dispute. Set your payout address in case money is released to you.';
      return 'An admin is reviewing the dispute and will tell both of you the outcome.';
    case 'frozen':
      return 'An admin has frozen this escrow; nothing can change until it is unfrozen.';
    case 'released':
      return splitOf(escrow) ? 'The dispute ended in a split; each share went to its address.' : 'The deal is complete: the money went to the seller.';
    case 'refunded':
      return 'The money went back to the buyer; the escrow is closed.';
    case 'cancelled':
      return 'This escrow was cancelled; do not send money to its address.';
    default: {
      const unknown: never = status;
      return unknown;
    }
  }
}
