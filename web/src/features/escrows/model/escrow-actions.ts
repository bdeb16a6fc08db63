import type { Escrow } from '../api/types.ts';

/** What a party can do on an escrow's page, in the order they are offered (the next step first). */
export type EscrowAction =
  | 'make_payment'
  | 'mark_paid'
  | 'confirm_receipt'
  | 'show_payment'
  | 'set_payout_address'
  | 'set_refund_address'
  | 'open_dispute'
  | 'cancel';

type EscrowFacts = Pick<
  Escrow,
  'side' | 'status' | 'created_by' | 'creator_side' | 'assigned_address' | 'payment_marked_at' | 'buyer_confirmed_at' | 'payout_address' | 'refund_address'
>;

const ORDER: readonly EscrowAction[] = ['make_payment', 'mark_paid', 'confirm_receipt', 'show_payment', 'set_payout_address', 'set_refund_address', 'open_dispute', 'cancel'];

/**
 * The actions the contract allows this user on this escrow now, and only those (contract section 3, as the escrow
 * machine decides them): the page offers exactly these, and the dashboard's "needs my action" filter reads them.
 * Admins act from the admin console, never here.
 */
export function escrowActions(escrow: EscrowFacts, user: { id: string }): EscrowAction[] {
  const { side, status } = escrow;
  if (side === 'admin') return [];
  const offered = new Set<EscrowAction>();
  const pending = status === 'pending_payment';
  const open = pending || status === 'funded' || status === 'disputed';
  if (side === 'buyer') {
    if (pending && !escrow.assigned_address) offered.add('make_payment');
    if (pending && escrow.assigned_address) offered.add('show_payment');
    if (pending && escrow.assigned_address && !escrow.payment_marked_at) offered.add('mark_paid');
    if (status === 'funded' && !escrow.buyer_confirmed_at) offered.add('confirm_receipt');
    if (open) offered.add('set_refund_address');
  } else if (open) {
    offered.add('set_payout_address');
  }
  if (pending || status === 'funded') offered.add('open_dispute');
  if (pending && !escrow.payment_marked_at && escrow.created_by === user.id && escrow.creator_side === side) offered.add('cancel');
  return ORDER.filter((action) => offered.has(action));
}

/**
 * Whether the escrow waits on this user: a payment to make or mark, a receipt to confirm, or (once the money is
 * held) the address it would be paid out to.
 */
export function needsMyAction(escrow: EscrowFacts, user: { id: string }): boolean {
  const actions = escrowActions(escrow, user);
  if (actions.some((a) => a === 'make_payment' || a === 'mark_paid' || a === 'confirm_receipt')) return true;
  const held = escrow.status === 'funded' || escrow.status === 'disputed';
  if (held && escrow.side === 'seller' && !escrow.payout_address) return true;
  return escrow.status === 'disputed' && escrow.side === 'buyer' && !escrow.refund_address;
}
