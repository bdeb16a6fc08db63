import type { Escrow } from '../../../contract/escrows.ts';

/** How a released escrow's money was divided, when it was split (for display: the badge, the notes, the tracker). */
export const splitOf = (escrow: Pick<Escrow, 'status' | 'dispute'>) =>
  escrow.status === 'released' && escrow.dispute?.resolution === 'split' && escrow.dispute.seller_percent !== null
    ? { seller: escrow.dispute.seller_percent, buyer: 100 - escrow.dispute.seller_percent }
    : null;
