import type { AdminEscrow } from './api/get-escrow.ts';

export type EscrowPower = 'assign' | 'release' | 'refund' | 'freeze' | 'unfreeze' | 'cancel';

/** A power the admin has on this escrow now, or why not (shown beside it rather than a button that can only fail). */
export type PowerState = { power: EscrowPower; allowed: true } | { power: EscrowPower; allowed: false; why: string };

const FINAL = new Set(['released', 'refunded', 'cancelled']);

/** Which of the escrow tab's powers apply to an escrow, in one place for the page and its tests. */
export function escrowPowers(escrow: Pick<AdminEscrow, 'status' | 'assigned_address' | 'payout_address' | 'refund_address'> & { payment_marked_at?: string | null }): PowerState[] {
  const states: PowerState[] = [];
  if (escrow.status === 'pending_payment' && !escrow.assigned_address) states.push({ power: 'assign', allowed: true });
  if (escrow.status === 'funded') {
    states.push(escrow.payout_address ? { power: 'release', allowed: true } : { power: 'release', allowed: false, why: 'The seller has not set a payout address yet' });
    states.push(escrow.refund_address ? { power: 'refund', allowed: true } : { power: 'refund', allowed: false, why: 'The buyer has not set a refund address yet' });
  }
  if (escrow.status === 'pending_payment') {
    states.push(escrow.payment_marked_at ? { power: 'cancel', allowed: false, why: 'The buyer marked the payment: verify or reject it first' } : { power: 'cancel', allowed: true });
  }
  if (escrow.status === 'frozen') states.push({ power: 'unfreeze', allowed: true });
  else if (!FINAL.has(escrow.status)) states.push({ power: 'freeze', allowed: true });
  return states;
}
