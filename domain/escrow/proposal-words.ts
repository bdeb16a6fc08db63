import type { ProposalKind } from './events.ts';

/** A proposal's terms in words, for the timeline and the mail: "a split, 70% to the seller". Pure. */
export function proposalTerms(proposal: {
  kind: ProposalKind;
  seller_percent: number | null;
  days: number | null;
}): string {
  const days = `${proposal.days ?? 0} day${proposal.days === 1 ? '' : 's'}`;
  switch (proposal.kind) {
    case 'cancel':
      return 'to cancel the escrow';
    case 'refund':
      return 'a full refund to the buyer';
    case 'split':
      return `a split, ${proposal.seller_percent ?? 0}% to the seller and ${100 - (proposal.seller_percent ?? 0)}% to the buyer`;
    case 'extend_deadline':
      return `to extend the payment deadline by ${days}`;
    case 'extend_inspection':
      return `to extend the inspection period by ${days}`;
  }
}
