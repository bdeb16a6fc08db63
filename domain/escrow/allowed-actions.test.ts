import { describe, expect, it } from 'vitest';
import type { EscrowActor } from './actors.ts';
import { actionsChangeAt, allowedActions, readyToRelease, refundDue, settlementReady } from './allowed-actions.ts';
import type { EscrowEvent } from './events.ts';
import { foldEscrow } from './state.ts';
import { buyerRefund, histories, sample } from './test-fixtures.ts';

const NOW = '2026-01-02T00:00:00.000Z';
const stateOf = (events: readonly EscrowEvent[]) =>
  foldEscrow(events.map((e) => ({ ...e, occurred_at: '2026-01-01T00:00:00.000Z' })));
const actions = (history: keyof typeof histories, actor: EscrowActor, now = NOW) =>
  allowedActions(stateOf(histories[history]), actor, now);

/** The sample escrow is created by its buyer. */
const table: [keyof typeof histories, Record<'buyer' | 'seller' | 'admin', string[]>][] = [
  [
    'pendingFresh',
    {
      buyer: ['request_payment', 'set_refund_address', 'open_dispute', 'cancel', 'propose', 'post_message'],
      seller: ['set_payout_address', 'open_dispute', 'propose', 'post_message'],
      admin: ['post_message', 'assign_address', 'freeze'],
    },
  ],
  [
    'pendingMarked',
    {
      buyer: ['set_refund_address', 'open_dispute', 'propose', 'post_message'],
      seller: ['set_payout_address', 'open_dispute', 'propose', 'post_message'],
      admin: ['post_message', 'verify_payment', 'freeze'],
    },
  ],
  [
    'funded',
    {
      buyer: ['confirm_receipt', 'set_refund_address', 'open_dispute', 'propose', 'post_message'],
      seller: ['ship', 'set_payout_address', 'open_dispute', 'propose', 'post_message'],
      admin: ['post_message', 'release', 'refund', 'freeze'],
    },
  ],
  [
    'disputedFromFunded',
    {
      buyer: ['set_refund_address', 'propose', 'post_message'],
      seller: ['set_payout_address', 'propose', 'post_message'],
      admin: ['post_message', 'resolve', 'freeze'],
    },
  ],
  ['frozen', { buyer: ['post_message'], seller: ['post_message'], admin: ['post_message', 'unfreeze'] }],
  // An ended deal's conversation is closed: it stays readable, nothing more can be written.
  ['released', { buyer: [], seller: [], admin: [] }],
  ['cancelled', { buyer: [], seller: [], admin: [] }],
];

describe('allowedActions: per status and side', () => {
  for (const [history, bySide] of table) {
    for (const [side, expected] of Object.entries(bySide)) {
      it(`${history}: the ${side} may ${expected.join(', ')}`, () => {
        expect(actions(history, side as EscrowActor)).toEqual(expected);
      });
    }
  }

  it('offers nothing on an escrow that does not exist, and nothing to the system', () => {
    expect(actions('draft', 'buyer')).toEqual([]);
    expect(actions('funded', 'system')).toEqual([]);
  });

  it('offers cancel to the creator only: a seller-created escrow is cancelled by its seller', () => {
    const bySeller = {
      ...sample.EscrowCreated,
      data: { ...sample.EscrowCreated.data, creator_side: 'seller' as const },
    };
    const state = stateOf([bySeller]);
    expect(allowedActions(state, 'seller', NOW)).toContain('cancel');
    expect(allowedActions(state, 'buyer', NOW)).not.toContain('cancel');
  });

  it('offers release only once a replaced payout address is no longer held', () => {
    const held: EscrowEvent = {
      type: 'PayoutAddressSet',
      data: { side: 'seller', address: 'bc1qnew', replaces: 'bc1qpayout', held_until: '2026-01-03T00:00:00.000Z' },
    };
    const state = stateOf([...histories.funded, held]);
    expect(allowedActions(state, 'admin', NOW)).not.toContain('release');
    expect(allowedActions(state, 'admin', '2026-01-03T00:00:00.000Z')).toContain('release');
  });

  it('says when what it offers next changes by the clock alone: the first of its times still ahead', () => {
    const held: EscrowEvent = {
      type: 'PayoutAddressSet',
      data: { side: 'seller', address: 'bc1qnew', replaces: 'bc1qpayout', held_until: '2026-01-03T00:00:00.000Z' },
    };
    const state = stateOf([...histories.funded, held]);
    expect(actionsChangeAt(state, NOW)).toBe(Date.parse('2026-01-03T00:00:00.000Z'));
    // Then the payment deadline (2026-01-08), and after it nothing: an answer then holds until the next event.
    expect(actionsChangeAt(state, '2026-01-03T00:00:00.001Z')).toBe(Date.parse('2026-01-08T00:00:00.000Z'));
    expect(actionsChangeAt(state, '2026-01-08T00:00:00.001Z')).toBeNull();
  });
});

/** Escrows under this round's rules (inspection_days set): agreement applies. */
const createdBy = (creator: 'buyer' | 'seller'): EscrowEvent => ({
  type: 'EscrowCreated',
  data: { ...sample.EscrowCreated.data, creator_side: creator, inspection_days: 3 },
});
const adminAddress: EscrowEvent = {
  type: 'PaymentAddressAssigned',
  data: { ...sample.PaymentAddressAssigned.data, assigned_via: 'admin' },
};
/** The seller declined after the buyer paid: funded, and a refund owed. */
const fundedDeclined: EscrowEvent[] = [
  createdBy('buyer'),
  sample.PaymentAddressAssigned,
  sample.PaymentMarked,
  { type: 'TermsDeclined', data: { side: 'seller', reason: 'price changed' } },
  sample.PaymentVerified,
];

describe('allowedActions on open proposals', () => {
  const bySeller: EscrowEvent = { ...sample.ProposalMade, data: { ...sample.ProposalMade.data, side: 'seller' } };

  it('offers the other side the answers to the open proposal and its maker the withdrawal, whoever made it', () => {
    const buyers = stateOf([...histories.funded, sample.ProposalMade]);
    expect(allowedActions(buyers, 'buyer', NOW)).toEqual([
      'confirm_receipt',
      'set_refund_address',
      'open_dispute',
      'withdraw_proposal',
      'post_message',
    ]);
    expect(allowedActions(buyers, 'seller', NOW)).toEqual([
      'ship',
      'set_payout_address',
      'open_dispute',
      'accept_proposal',
      'decline_proposal',
      'post_message',
    ]);
    const sellers = stateOf([...histories.funded, bySeller]);
    expect(allowedActions(sellers, 'seller', NOW)).toEqual([
      'ship',
      'set_payout_address',
      'open_dispute',
      'withdraw_proposal',
      'post_message',
    ]);
    expect(allowedActions(sellers, 'buyer', NOW)).toEqual([
      'confirm_receipt',
      'set_refund_address',
      'open_dispute',
      'accept_proposal',
      'decline_proposal',
      'post_message',
    ]);
  });
});

describe("allowedActions on a seller's escrow the buyer has not agreed to", () => {
  it('offers an admin to assign an address, which the buyer then marks paid (agreeing by paying)', () => {
    expect(allowedActions(stateOf([createdBy('seller')]), 'admin', NOW)).toEqual([
      'post_message',
      'assign_address',
      'freeze',
    ]);
    const assigned = stateOf([createdBy('seller'), adminAddress]);
    expect(allowedActions(assigned, 'buyer', NOW)).toEqual([
      'agree',
      'decline',
      'mark_paid',
      'set_refund_address',
      'open_dispute',
      'propose',
      'post_message',
    ]);
  });
});

describe('readyToRelease, settlementReady, refundDue', () => {
  it('counts a funded escrow ready to release only once receipt is confirmed', () => {
    expect(readyToRelease(stateOf(histories.funded), NOW)).toBe(false);
    expect(readyToRelease(stateOf([...histories.funded, sample.ReceiptConfirmed]), NOW)).toBe(true);
  });

  it('counts a settlement ready only when one was agreed; an agreed refund in a dispute is executed by resolving', () => {
    expect(settlementReady(stateOf(histories.funded), NOW)).toBe(false);
    expect(settlementReady(stateOf(histories.disputedFromFunded), NOW)).toBe(false);
    const refund: EscrowEvent = {
      type: 'ProposalMade',
      data: { ...sample.ProposalMade.data, kind: 'refund', side: 'seller', seller_percent: null, seller_sats: 0 },
    };
    const agreed: EscrowEvent = {
      ...sample.ProposalAccepted,
      data: { ...sample.ProposalAccepted.data, side: 'buyer' },
    };
    expect(settlementReady(stateOf([...histories.disputedFromFunded, refund, agreed]), NOW)).toBe(true);
    expect(settlementReady(stateOf([...histories.funded, refund, agreed]), NOW)).toBe(true);
  });

  it('owes the buyer a refund while terms declined after payment stand unsettled, not once refunded', () => {
    expect(refundDue(stateOf(fundedDeclined))).toBe(true);
    expect(refundDue(stateOf(fundedDeclined.slice(0, 4)))).toBe(true);
    expect(refundDue(stateOf(histories.funded))).toBe(false);
    expect(refundDue(stateOf([...fundedDeclined, buyerRefund, sample.EscrowRefunded]))).toBe(false);
  });
});
