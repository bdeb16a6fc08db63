import type { Escrow } from '../../../contract/escrows.ts';

type Facts = Pick<Escrow, 'status' | 'dispute'> & Partial<Pick<Escrow, 'proposals'>>;

/** The seller's percent of a split the escrow was paid out by: a dispute's resolution, or a proposal both accepted. */
function splitPercent(escrow: Facts): number | null {
  if (escrow.dispute?.resolution === 'split') return escrow.dispute.seller_percent;
  const agreed = escrow.proposals?.find((proposal) => proposal.kind === 'split' && proposal.status === 'accepted');
  return agreed?.seller_percent ?? null;
}

/** How a released escrow's money was divided, when it was split (for display: the badge, the notes, the tracker). */
export function splitOf(escrow: Facts): { seller: number; buyer: number } | null {
  if (escrow.status !== 'released') return null;
  const seller = splitPercent(escrow);
  return seller === null ? null : { seller, buyer: 100 - seller };
}
