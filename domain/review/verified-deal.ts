import type { EscrowActor } from '../escrow/actors.ts';
import type { EscrowStatus } from '../escrow/state.ts';

/**
 * A review carries the verified-deal mark only when its author is a party (the buyer or the seller) of the escrow it
 * names and that escrow was released: a deal that went through. Refunded, cancelled or open deals do not count, nor
 * does an admin.
 */
export const isVerifiedDeal = (escrow: { status: EscrowStatus }, side: EscrowActor | null): boolean =>
  escrow.status === 'released' && (side === 'buyer' || side === 'seller');
