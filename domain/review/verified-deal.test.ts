import { describe, expect, it } from 'vitest';
import type { EscrowStatus } from '../escrow/state.ts';
import { isVerifiedDeal } from './verified-deal.ts';

const ALL: EscrowStatus[] = [
  'draft',
  'pending_payment',
  'funded',
  'disputed',
  'frozen',
  'released',
  'refunded',
  'cancelled',
];

describe('the verified-deal mark', () => {
  it("is earned by the buyer's or the seller's review of a released escrow", () => {
    expect(isVerifiedDeal({ status: 'released' }, 'buyer')).toBe(true);
    expect(isVerifiedDeal({ status: 'released' }, 'seller')).toBe(true);
  });

  it('is not earned on an escrow in any other status', () => {
    for (const status of ALL.filter((s) => s !== 'released')) {
      expect(isVerifiedDeal({ status }, 'buyer'), status).toBe(false);
      expect(isVerifiedDeal({ status }, 'seller'), status).toBe(false);
    }
  });

  it('is not earned by an admin or someone who is not a party', () => {
    expect(isVerifiedDeal({ status: 'released' }, 'admin')).toBe(false);
    expect(isVerifiedDeal({ status: 'released' }, null)).toBe(false);
  });
});
