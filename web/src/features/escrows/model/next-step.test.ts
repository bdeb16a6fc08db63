import { describe, expect, it } from 'vitest';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import type { Escrow, Proposal } from '../api/types.ts';
import { nextStepFor } from './next-step.ts';

const at = '2026-11-25T10:00:00.000Z';
const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('the next step after the terms were declined', () => {
  it.each([
    [
      'the seller who declined a paid escrow',
      { side: 'seller', creator_side: 'buyer' },
      'You declined the terms; an admin will refund the buyer.',
    ],
    [
      'its buyer, with no refund address',
      { side: 'buyer', creator_side: 'buyer' },
      'The seller declined the terms. Set a refund address so an admin can send your payment back.',
    ],
    [
      'its buyer, with a refund address',
      { side: 'buyer', creator_side: 'buyer', refund_address: ADDRESS },
      'The seller declined the terms; an admin will send your payment back to your refund address.',
    ],
    [
      'a buyer who declined after paying',
      { side: 'buyer', creator_side: 'seller' },
      'You declined the terms. Set a refund address so an admin can send your payment back.',
    ],
  ] as const)('%s', (_who, sides, words) => {
    const escrow = escrowFixture({
      status: 'funded',
      funded_at: at,
      agreed_at: null,
      declined_at: at,
      allowed_actions: [],
      ...sides,
    });
    expect(nextStepFor(escrow)).toBe(words);
  });

  it('says a cancelled escrow is cancelled, declined or not', () => {
    expect(nextStepFor(escrowFixture({ status: 'cancelled', declined_at: at, allowed_actions: [] }))).toBe(
      'This escrow was cancelled; do not send money to its address.',
    );
  });
});

describe('the next step once both parties agreed to a payout', () => {
  const split: Proposal = {
    id: 'p1',
    kind: 'split',
    status: 'accepted',
    proposed_by: 'seller',
    seller_percent: 60,
    days: null,
    note: null,
    seller_sats: 600_000,
    buyer_sats: 400_000,
    created_at: at,
  };
  const refund: Proposal = { ...split, kind: 'refund', seller_percent: null, seller_sats: 0, buyer_sats: 1_015_000 };
  // The server still allows receipt to be confirmed; the box does not ask for it, since the payout was agreed.
  const held: Partial<Escrow> = {
    status: 'funded',
    funded_at: at,
    agreed_at: at,
    payout_address: ADDRESS,
    refund_address: ADDRESS,
    allowed_actions: ['confirm_receipt', 'set_refund_address', 'open_dispute'],
  };

  it.each<[string, Partial<Escrow>, string]>([
    [
      'the buyer of a split',
      { proposals: [split] },
      'You both agreed to a split, 60% to the seller; an admin will send each share to its address.',
    ],
    [
      'the seller of a split, with no payout address',
      { side: 'seller', payout_address: null, proposals: [split] },
      'You both agreed to a split, 60% to the seller. Set your payout address so an admin can send your share.',
    ],
    [
      'the buyer of a refund, with no refund address',
      { refund_address: null, proposals: [refund] },
      'You both agreed to a full refund to the buyer. Set a refund address so an admin can send the money back to you.',
    ],
    [
      'the seller of a refund',
      { side: 'seller', proposals: [refund] },
      "You both agreed to a full refund to the buyer; an admin will send it to the buyer's refund address.",
    ],
    [
      'a split agreed in a dispute',
      { status: 'disputed', proposals: [split] },
      'You both agreed to a split, 60% to the seller; an admin will send each share to its address.',
    ],
  ])('%s', (_who, over, words) => {
    expect(nextStepFor(escrowFixture({ ...held, ...over }))).toBe(words);
  });

  it('says how it ended once it was paid out', () => {
    expect(nextStepFor(escrowFixture({ ...held, status: 'released', allowed_actions: [], proposals: [split] }))).toBe(
      'The money was split; each share went to its address.',
    );
  });
});
