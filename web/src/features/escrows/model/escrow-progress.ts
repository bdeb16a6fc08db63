import type { Escrow, EscrowStatus } from '../api/types.ts';
import { splitOf } from '../../../lib/escrow-split.ts';
import { needsMyAction } from './party-actions.ts';

type Facts = Pick<
  Escrow,
  | 'status'
  | 'side'
  | 'creator_side'
  | 'agreed_at'
  | 'declined_at'
  | 'payment_marked_at'
  | 'payment_rejected_at'
  | 'shipped_at'
  | 'inspection_ends_at'
  | 'buyer_confirmed_at'
  | 'funded_at'
  | 'dispute'
  | 'proposals'
>;

const FINAL: ReadonlySet<EscrowStatus> = new Set(['released', 'refunded', 'cancelled']);
export const isFinal = (status: EscrowStatus) => FINAL.has(status);

/** Who declined: only the party that did not open the escrow is asked to agree. */
const declinedBy = (escrow: Facts) => `Declined by the ${escrow.creator_side === 'buyer' ? 'seller' : 'buyer'}`;

/** The second line under a status badge: what the status alone hides (contract section 6), or null. */
export function statusNote(escrow: Facts): string | null {
  switch (escrow.status) {
    case 'pending_payment':
      // Declined while the escrow is open: the buyer had already paid (else it would be cancelled).
      if (escrow.declined_at) return `${declinedBy(escrow)}: the money goes back to the buyer`;
      if (escrow.payment_marked_at) return 'Payment marked, being checked by an admin';
      if (escrow.payment_rejected_at)
        return escrow.side === 'buyer'
          ? 'Payment not confirmed: mark it as paid again'
          : 'Payment not confirmed; waiting for the buyer to mark it again';
      return escrow.agreed_at === null ? 'Waiting for agreement to the terms' : null;
    case 'funded':
      if (escrow.declined_at) return `${declinedBy(escrow)}: the money goes back to the buyer`;
      if (escrow.buyer_confirmed_at) return 'Receipt confirmed';
      if (escrow.inspection_ends_at) return 'Received; being inspected';
      if (escrow.shipped_at) return 'Shipped';
      return escrow.agreed_at === null ? 'Waiting for agreement to the terms' : null;
    case 'disputed':
      return escrow.dispute ? `Dispute opened by the ${escrow.dispute.opened_by_side}` : null;
    case 'released': {
      const split = splitOf(escrow);
      return split ? `Split: ${split.seller}% to the seller, ${split.buyer}% to the buyer` : null;
    }
    case 'cancelled':
      return escrow.declined_at ? declinedBy(escrow) : null;
    default:
      return null;
  }
}

export const DASHBOARD_FILTERS = ['needs_action', 'active', 'closed', 'all'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];
export const FILTER_LABELS: Record<DashboardFilter, string> = {
  needs_action: 'Needs my action',
  active: 'Active',
  closed: 'Closed',
  all: 'All',
};

/** The dashboard's filters: what waits on me, what is still open, what has ended, everything. */
export function matchesFilter(escrow: Parameters<typeof needsMyAction>[0] & Facts, filter: DashboardFilter): boolean {
  switch (filter) {
    case 'needs_action':
      return needsMyAction(escrow);
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
