import { describe, expect, it } from 'vitest';
import type { ProposalKind } from './events.ts';
import { proposalTerms } from './proposal-words.ts';

const terms = (kind: ProposalKind, figures: { seller_percent?: number; days?: number } = {}) =>
  proposalTerms({ kind, seller_percent: figures.seller_percent ?? null, days: figures.days ?? null });

describe("a proposal's terms in words", () => {
  it('names a cancel and a full refund', () => {
    expect(terms('cancel')).toBe('to cancel the escrow');
    expect(terms('refund')).toBe('a full refund to the buyer');
  });

  it("gives a split's shares to each side, the buyer's being the rest", () => {
    expect(terms('split', { seller_percent: 70 })).toBe('a split, 70% to the seller and 30% to the buyer');
    expect(terms('split', { seller_percent: 1 })).toBe('a split, 1% to the seller and 99% to the buyer');
  });

  it('says by how many days an extension moves the deadline or the inspection end, one day in the singular', () => {
    expect(terms('extend_deadline', { days: 7 })).toBe('to extend the payment deadline by 7 days');
    expect(terms('extend_deadline', { days: 1 })).toBe('to extend the payment deadline by 1 day');
    expect(terms('extend_inspection', { days: 3 })).toBe('to extend the inspection period by 3 days');
    expect(terms('extend_inspection', { days: 1 })).toBe('to extend the inspection period by 1 day');
  });
});
