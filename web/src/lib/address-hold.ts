import { addressFreeAt } from '../../../domain/escrow/address-hold.ts';
import { formatDateTime } from './format.ts';

/**
 * Why no money may go to a replaced payout or refund address yet (the server refuses a release, refund or settlement
 * to it until its hold ends), or null when it is not held or the hold is over.
 */
export function addressHoldText(heldUntil: string | null, now: Date = new Date()): string | null {
  if (heldUntil === null || addressFreeAt(heldUntil, now.toISOString())) return null;
  return `Replaced recently: no money goes to it before ${formatDateTime(heldUntil)}`;
}
