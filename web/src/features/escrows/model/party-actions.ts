import { agreedSettlement } from '../../../lib/escrow-split.ts';
import type { Escrow, EscrowAction } from '../api/types.ts';

/**
 * What the next-step box offers: the allowed actions it has a button for, plus two that only present allowed ones
 * ("Agree and pay" is `agree` then `request_payment` in one click for the buyer; "Payment information" shows where
 * to pay while `mark_paid` is allowed). Proposal answers are offered on the proposal itself, messages in the
 * conversation, admin powers in the console.
 */
export type PageAction = EscrowAction | 'agree_and_pay' | 'show_payment';

/** The actions that move the deal on, in the order a deal takes them: the first one allowed is the next step. */
const NEXT_STEPS: readonly EscrowAction[] = [
  'agree',
  'request_payment',
  'mark_paid',
  'ship',
  'receive',
  'confirm_receipt',
];
/** The other buttons of the box, in the order offered after the next step. */
const OTHERS: readonly EscrowAction[] = [
  'set_payout_address',
  'set_refund_address',
  'propose',
  'decline',
  'open_dispute',
  'cancel',
];

type Facts = Pick<Escrow, 'side' | 'allowed_actions'> & Partial<Pick<Escrow, 'proposals'>>;

/**
 * The deal's own steps, unless both parties agreed to a refund or split: the deal then ends in the payout they
 * agreed (an admin's to make), and shipping or confirming receipt would only mislead them.
 */
const dealSteps = (escrow: Facts): readonly EscrowAction[] => (agreedSettlement(escrow) ? [] : NEXT_STEPS);

const present = (action: EscrowAction, escrow: Facts): PageAction =>
  action === 'agree' && escrow.side === 'buyer' ? 'agree_and_pay' : action;

/** This user's one next step on the escrow, or null when the escrow waits on someone else. */
export function nextAction(escrow: Facts): PageAction | null {
  if (escrow.side === 'admin') return null;
  const next = dealSteps(escrow).find((action) => escrow.allowed_actions.includes(action));
  return next ? present(next, escrow) : null;
}

/** The buttons of the next-step box, the next step first: exactly the allowed actions it offers. */
export function pageActions(escrow: Facts): PageAction[] {
  if (escrow.side === 'admin') return []; // an admin acts from the console
  const allowed = new Set(escrow.allowed_actions);
  const actions: PageAction[] = [...dealSteps(escrow), ...OTHERS]
    .filter((action) => allowed.has(action))
    .map((action) => present(action, escrow))
    // Make Payment before agreeing agrees too: one button for the one step.
    .filter((action, _, all) => !(action === 'request_payment' && all.includes('agree_and_pay')));
  if (allowed.has('mark_paid')) actions.splice(actions.indexOf('mark_paid') + 1, 0, 'show_payment');
  return actions;
}

/** Money goes back to the buyer: terms declined after payment, or a refund or split both parties agreed to. */
const moneyComesBack = (escrow: Pick<Escrow, 'refund_due' | 'proposals'>) =>
  escrow.refund_due ||
  escrow.proposals.some((p) => p.status === 'accepted' && (p.kind === 'refund' || p.kind === 'split'));

/**
 * Whether the escrow waits on this user (the dashboard's "Needs my action"): a next step of theirs, an open
 * proposal to answer, once the money is held the address it would be paid out to, or the buyer's refund address
 * when money is to come back.
 */
export function needsMyAction(
  escrow: Facts & Pick<Escrow, 'payout_address' | 'refund_address' | 'funded_at' | 'refund_due' | 'proposals'>,
): boolean {
  if (nextAction(escrow) !== null || escrow.allowed_actions.includes('accept_proposal')) return true;
  if (escrow.allowed_actions.includes('set_refund_address') && !escrow.refund_address && moneyComesBack(escrow))
    return true;
  return escrow.funded_at !== null && escrow.allowed_actions.includes('set_payout_address') && !escrow.payout_address;
}
