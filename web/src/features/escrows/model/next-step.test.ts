import { describe, expect, it } from 'vitest';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import { nextStepFor } from './next-step.ts';

const at = '2026-11-25T10:00:00.000Z';
const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('the next step after the terms were declined', () => {
  it.each([
    ['the seller who declined a paid escrow', { side: 'seller', creator_side: 'buyer' }, 'You declined the terms; an admin will refund the buyer.'],
    ['its buyer, with no refund address', { side: 'buyer', creator_side: 'buyer' }, 'The seller declined the terms. Set a refund address so an admin can send your payment back.'],
    ['its buyer, with a refund address', { side: 'buyer', creator_side: 'buyer', refund_address: ADDRESS }, 'The seller declined the terms; an admin will send your payment back to your refund address.'],
    ['a buyer who declined after paying', { side: 'buyer', creator_side: 'seller' }, 'You declined the terms. Set a refund address so an admin can send your payment back.'],
  ] as const)('%s', (_who, sides, words) => {
    const escrow = escrowFixture({ status: 'funded', funded_at: at, agreed_at: null, declined_at: at, allowed_actions: [], ...sides });
    expect(nextStepFor(escrow)).toBe(words);
  });

  it('says a cancelled escrow is cancelled, declined or not', () => {
    expect(nextStepFor(escrowFixture({ status: 'cancelled', declined_at: at, allowed_actions: [] }))).toBe('This escrow was cancelled; do not send money to its address.');
  });
});
