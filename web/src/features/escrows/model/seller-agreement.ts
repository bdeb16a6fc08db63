import type { Escrow } from '../api/types.ts';

type Facts = Pick<Escrow, 'side' | 'creator_side' | 'agreed_at' | 'declined_at'>;

/**
 * What the buyer of their own escrow is told while its seller has not agreed to the terms (contract 7.1: the buyer
 * may pay at once; the page and the payment dialog say so), or null once the seller answered.
 */
export function sellerNotAgreedNote(escrow: Facts): string | null {
  if (escrow.side !== 'buyer' || escrow.creator_side !== 'buyer' || escrow.agreed_at !== null || escrow.declined_at)
    return null;
  return 'The seller has not agreed to the terms yet: if they decline after you paid, an admin sends the money back to you.';
}
