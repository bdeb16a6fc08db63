import type { Escrow, Proposal } from '../../../contract/escrows.ts';

/** An accepted proposal that moves the money. */
export type AgreedSettlement = Proposal & { kind: 'refund' | 'split' };

type Facts = Pick<Escrow, 'status' | 'dispute'> & Partial<Pick<Escrow, 'proposals'>>;

/** The refund or split both parties accepted (contract 7.5), if the escrow has one: what the admins then pay out. */
export const agreedSettlement = (escrow: Partial<Pick<Escrow, 'proposals'>>): AgreedSettlement | null =>
  escrow.proposals?.find(
    (p): p is AgreedSettlement => p.status === 'accepted' && (p.kind === 'refund' || p.kind === 'split'),
  ) ?? null;

/** The seller's percent of a split the escrow was paid out by: a dispute's resolution, or a proposal both accepted. */
function splitPercent(escrow: Facts): number | null {
  if (escrow.dispute?.resolution === 'split') return escrow.dispute.seller_percent;
  const agreed = agreedSettlement(escrow);
  return agreed?.kind === 'split' ? agreed.seller_percent : null;
}

/** How a released escrow's money was divided, when it was split (for display: the badge, the notes, the tracker). */
export function splitOf(escrow: Facts): { seller: number; buyer: number } | null {
  if (escrow.status !== 'released') return null;
  const seller = splitPercent(escrow);
  return seller === null ? null : { seller, buyer: 100 - seller };
}
