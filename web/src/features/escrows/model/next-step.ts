import { formatDateTime } from '../../../lib/format.ts';
import { agreedSettlement, type AgreedSettlement, splitOf } from '../../../lib/escrow-split.ts';
import type { Escrow } from '../api/types.ts';
import { isFinal } from './escrow-progress.ts';
import { nextAction, type PageAction } from './party-actions.ts';
import { sellerNotAgreedNote } from './seller-agreement.ts';

type Facts = Pick<
  Escrow,
  | 'side'
  | 'status'
  | 'allowed_actions'
  | 'creator_side'
  | 'agreed_at'
  | 'declined_at'
  | 'payment_rejected_at'
  | 'payment_marked_at'
  | 'shipped_at'
  | 'inspection_days'
  | 'inspection_ends_at'
  | 'buyer_confirmed_at'
  | 'payout_address'
  | 'refund_address'
  | 'dispute'
  | 'proposals'
>;

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
const withNote = (text: string, note: string | null) => (note ? `${text} ${note}` : text);

/** What to do now, in words, for the step the server says is this user's. */
function doNow(action: PageAction, escrow: Facts): string {
  switch (action) {
    case 'agree':
      return 'Read the terms below. Agree to them, or decline with a reason; nothing moves until you answer.';
    case 'agree_and_pay':
      return 'Read the terms below. Click Agree and pay to accept them and get the address to pay to, or decline with a reason.';
    case 'request_payment':
      return withNote('Click Make Payment to get the address to pay to.', sellerNotAgreedNote(escrow));
    case 'mark_paid':
      return withNote(
        escrow.payment_rejected_at
          ? 'Your payment was not found on the chain. Check that the exact amount went to the payment address, then click Mark as Paid again.'
          : 'Send the exact amount to the payment address, then click Mark as Paid.',
        sellerNotAgreedNote(escrow),
      );
    case 'ship':
      return 'The money is held. Deliver, then record the shipment: how it goes, the carrier and the tracking number.';
    case 'receive':
      return (escrow.inspection_days ?? 0) > 0
        ? `The seller has shipped. When it arrives, click Mark as received: you then have ${days(escrow.inspection_days ?? 0)} to inspect it.`
        : 'The seller has shipped. When it arrives, click Mark as received: that accepts it.';
    case 'confirm_receipt':
      return escrow.inspection_ends_at
        ? `Inspect what you received. Confirm Receipt, or open a dispute, by ${formatDateTime(escrow.inspection_ends_at)}; if you do neither, it is accepted then.`
        : 'The money is held. Click Confirm Receipt once you have what you paid for.';
    default:
      return '';
  }
}

/** A decline after the buyer paid: the admins send the money back. */
function refundAfterDecline(escrow: Facts): string {
  if (escrow.side === 'seller') return 'You declined the terms; an admin will refund the buyer.';
  const who = escrow.side === escrow.creator_side ? 'The seller declined the terms' : 'You declined the terms';
  return escrow.refund_address
    ? `${who}; an admin will send your payment back to your refund address.`
    : `${who}. Set a refund address so an admin can send your payment back.`;
}

/** A refund or split both parties agreed to and an admin has not paid out yet: what it is, and what is missing. */
function agreedPayout(escrow: Facts, agreed: AgreedSettlement): string {
  const what =
    agreed.kind === 'split' ? `a split, ${agreed.seller_percent}% to the seller` : 'a full refund to the buyer';
  const buyer = escrow.side === 'buyer';
  if (buyer && !escrow.refund_address)
    return `You both agreed to ${what}. Set a refund address so an admin can send the money back to you.`;
  if (!buyer && agreed.kind === 'split' && !escrow.payout_address)
    return `You both agreed to ${what}. Set your payout address so an admin can send your share.`;
  return `You both agreed to ${what}; an admin will send ${agreed.kind === 'split' ? 'each share to its address' : "it to the buyer's refund address"}.`;
}

/** Whom the escrow waits for, when it waits on someone else (for display: the server decides what anyone may do). */
function waitingFor(escrow: Facts): string {
  const buyer = escrow.side === 'buyer';
  const other = buyer ? 'the seller' : 'the buyer';
  if (escrow.declined_at && (escrow.status === 'pending_payment' || escrow.status === 'funded'))
    return refundAfterDecline(escrow);
  const agreed = agreedSettlement(escrow);
  if (agreed && !isFinal(escrow.status)) return agreedPayout(escrow, agreed);
  switch (escrow.status) {
    case 'pending_payment':
      if (escrow.agreed_at === null) return `Waiting for ${other} to agree to the terms.`;
      if (escrow.payment_marked_at) {
        return buyer
          ? 'An admin is checking your payment on the chain; nothing to do until then.'
          : 'The buyer marked the payment as sent; an admin is checking it on the chain.';
      }
      return buyer ? 'Waiting for a payment address: the admins have been told.' : 'Waiting for the buyer to pay.';
    case 'funded':
      if (escrow.agreed_at === null) return `The money is held. Waiting for ${other} to agree to the terms.`;
      if (escrow.buyer_confirmed_at) {
        return buyer
          ? 'Receipt confirmed; an admin will release the money to the seller.'
          : escrow.payout_address
            ? 'Receipt confirmed; an admin will release the money to your payout address.'
            : 'Receipt confirmed. Set your payout address so an admin can release the money to you.';
      }
      if (escrow.shipped_at === null)
        return buyer
          ? 'The money is held. Waiting for the seller to deliver and record the shipment.'
          : 'The money is held.';
      if (escrow.inspection_ends_at)
        return `The buyer is inspecting the goods until ${formatDateTime(escrow.inspection_ends_at)}.`;
      if (escrow.shipped_at) return 'Shipped; waiting for the buyer to mark it received.';
      return buyer
        ? 'The money is held. Click Confirm Receipt once you have what you paid for.'
        : 'The money is held. Deliver; once the buyer confirms receipt, an admin releases it to you.';
    case 'disputed':
      if (buyer && !escrow.refund_address)
        return 'An admin is reviewing the dispute. Set a refund address in case money comes back to you.';
      if (!buyer && !escrow.payout_address)
        return 'An admin is reviewing the dispute. Set your payout address in case money is released to you.';
      return 'An admin is reviewing the dispute and will tell both of you the outcome.';
    case 'frozen':
      return 'An admin has frozen this escrow; nothing can change until it is unfrozen.';
    case 'released':
      return splitOf(escrow)
        ? 'The money was split; each share went to its address.'
        : 'The deal is complete: the money went to the seller.';
    case 'refunded':
      return 'The money went back to the buyer; the escrow is closed.';
    case 'cancelled':
      return 'This escrow was cancelled; do not send money to its address.';
    default: {
      const unknown: never = escrow.status;
      return unknown;
    }
  }
}

/** The one next step for this user, in words: what they do now, or whom the escrow waits for. */
export function nextStepFor(escrow: Facts): string {
  if (escrow.side === 'admin') return 'You are viewing this escrow as an admin; act on it from the admin console.';
  if (escrow.allowed_actions.includes('accept_proposal'))
    return 'The other party proposes a settlement: accept or decline it under Proposals.';
  const action = nextAction(escrow);
  return action ? doNow(action, escrow) : waitingFor(escrow);
}
