import { describe, expect, it } from 'vitest';
import { escrowAggregate } from '../aggregates.ts';
import { given, NOW } from '../testing/given.ts';
import { allowedActions, readyToRelease } from './allowed-actions.ts';
import { SETTLED_OUTCOME } from './decide.ts';
import type { EscrowEvent } from './events.ts';
import { partyHistory } from './history.ts';
import { foldEscrow } from './state.ts';
import {
  buyerRefund,
  CLOCK_PROPOSAL_ID as PID,
  DISPUTE_ID,
  histories,
  proposalAccepted as accepted,
  proposalMade as made,
  sample,
  sellerPayout,
  split70,
} from './test-fixtures.ts';

const escrow = (past: EscrowEvent[], now = NOW) => given(escrowAggregate, past, { now });
const stateOf = (events: EscrowEvent[]) => foldEscrow(events.map((e) => ({ ...e, occurred_at: NOW })));

const unpaid = histories.pendingFresh as EscrowEvent[];
const funded = histories.funded as EscrowEvent[];
const inspecting = [...funded, sample.ShipmentRecorded, sample.GoodsReceived] as EscrowEvent[];

describe('proposing a settlement', () => {
  it('records a split with the satoshis each side would get, computed like a payout', () => {
    escrow(funded)
      .when({ type: 'propose', by: 'buyer', kind: 'split', seller_percent: 70, note: ' scratched ' })
      .then([
        made('split', 'buyer', { seller_percent: 70, note: 'scratched', seller_sats: 1_400_000, buyer_sats: 600_000 }),
      ]);
    escrow(funded)
      .when({ type: 'propose', by: 'seller', kind: 'refund', seller_percent: 40 })
      .then([made('refund', 'seller', { seller_sats: 0, buyer_sats: 2_030_000 })]);
  });

  it('refuses bad terms, naming the field', () => {
    escrow(funded)
      .when({ type: 'propose', by: 'buyer', kind: 'swap' })
      .thenRefused('invalid_input', /^kind must be one of/);
    escrow(funded)
      .when({ type: 'propose', by: 'buyer', kind: 'split' })
      .thenRefused('invalid_input', 'seller_percent is required');
    escrow(funded)
      .when({ type: 'propose', by: 'buyer', kind: 'split', seller_percent: 100 })
      .thenRefused('invalid_input', 'seller_percent must be');
    escrow(unpaid)
      .when({ type: 'propose', by: 'buyer', kind: 'extend_deadline', days: 31 })
      .thenRefused('invalid_input', 'days must be');
    escrow(unpaid)
      .when({ type: 'propose', by: 'buyer', kind: 'extend_deadline', days: 0 })
      .thenRefused('invalid_input', 'days must be');
    escrow(unpaid)
      .when({ type: 'propose', by: 'buyer', kind: 'cancel', note: 'x'.repeat(1001) })
      .thenRefused('invalid_input', 'note');
  });

  it('lets only the parties propose', () => {
    escrow(funded).when({ type: 'propose', by: 'admin', kind: 'refund' }).thenRefused('forbidden');
  });

  it('allows each kind only when it fits the escrow', () => {
    escrow(unpaid)
      .when({ type: 'propose', by: 'seller', kind: 'cancel' })
      .then([made('cancel', 'seller')]);
    escrow(histories.pendingMarked as EscrowEvent[])
      .when({ type: 'propose', by: 'buyer', kind: 'cancel' })
      .thenRefused('transition_not_allowed', 'before the payment is marked');
    escrow(unpaid)
      .when({ type: 'propose', by: 'buyer', kind: 'refund' })
      .thenRefused('transition_not_allowed', 'needs money in escrow');
    escrow(histories.pendingMarked as EscrowEvent[])
      .when({ type: 'propose', by: 'buyer', kind: 'refund' })
      .then([made('refund', 'buyer', { seller_sats: 0, buyer_sats: 2_030_000 })]);
    escrow(unpaid)
      .when({ type: 'propose', by: 'buyer', kind: 'extend_deadline', days: 3 })
      .then([made('extend_deadline', 'buyer', { days: 3 })]);
    escrow(funded)
      .when({ type: 'propose', by: 'buyer', kind: 'extend_deadline', days: 3 })
      .thenRefused('transition_not_allowed', 'waits for payment');
    escrow(funded)
      .when({ type: 'propose', by: 'seller', kind: 'extend_inspection', days: 2 })
      .thenRefused('transition_not_allowed', 'while it runs');
    escrow(inspecting)
      .when({ type: 'propose', by: 'seller', kind: 'extend_inspection', days: 2 })
      .then([made('extend_inspection', 'seller', { days: 2 })]);
  });

  it('keeps one proposal open at a time, and none while frozen or once ended', () => {
    escrow([...funded, split70])
      .when({ type: 'propose', by: 'seller', kind: 'refund' })
      .thenRefused('transition_not_allowed', 'already open');
    escrow(histories.frozen as EscrowEvent[])
      .when({ type: 'propose', by: 'buyer', kind: 'cancel' })
      .thenRefused('transition_not_allowed', 'frozen');
    escrow(histories.released as EscrowEvent[])
      .when({ type: 'propose', by: 'buyer', kind: 'refund' })
      .thenRefused('transition_not_allowed', 'released');
  });

  it('in a dispute, allows a refund or a split of verified money only', () => {
    escrow(histories.disputedFromFunded as EscrowEvent[])
      .when({ type: 'propose', by: 'seller', kind: 'split', seller_percent: 50 })
      .then([made('split', 'seller', { seller_percent: 50, seller_sats: 1_000_000, buyer_sats: 1_000_000 })]);
    escrow(histories.disputedFromFunded as EscrowEvent[])
      .when({ type: 'propose', by: 'seller', kind: 'extend_inspection', days: 1 })
      .thenRefused('transition_not_allowed');
    escrow(histories.disputedFromPending as EscrowEvent[])
      .when({ type: 'propose', by: 'buyer', kind: 'cancel' })
      .thenRefused('transition_not_allowed');
  });
});

describe('answering a proposal', () => {
  it('lets the other side accept, decline with a reason, and the maker withdraw', () => {
    escrow([...funded, split70])
      .when({ type: 'acceptProposal', by: 'seller', proposal_id: PID })
      .then([accepted('seller')]);
    escrow([...funded, split70])
      .when({ type: 'acceptProposal', by: 'buyer', proposal_id: PID })
      .thenRefused('forbidden', 'other side');
    escrow([...funded, split70])
      .when({ type: 'declineProposal', by: 'seller', proposal_id: PID, reason: ' too low ' })
      .then([{ type: 'ProposalDeclined', data: { proposal_id: PID, side: 'seller', reason: 'too low' } }]);
    escrow([...funded, split70])
      .when({ type: 'declineProposal', by: 'buyer', proposal_id: PID })
      .thenRefused('forbidden');
    escrow([...funded, split70])
      .when({ type: 'withdrawProposal', by: 'buyer', proposal_id: PID })
      .then([{ type: 'ProposalWithdrawn', data: { proposal_id: PID, side: 'buyer' } }]);
    escrow([...funded, split70])
      .when({ type: 'withdrawProposal', by: 'seller', proposal_id: PID })
      .thenRefused('forbidden', 'made this proposal');
  });

  it('refuses an answer to a proposal that is no longer open', () => {
    const withdrawn: EscrowEvent = { type: 'ProposalWithdrawn', data: { proposal_id: PID, side: 'buyer' } };
    escrow([...funded, split70, withdrawn])
      .when({ type: 'acceptProposal', by: 'seller', proposal_id: PID })
      .thenRefused('transition_not_allowed', 'no longer open');
    escrow([...funded, split70])
      .when({ type: 'acceptProposal', by: 'seller', proposal_id: DISPUTE_ID })
      .thenRefused('transition_not_allowed', 'no longer open');
  });

  it('moves the payment deadline or the inspection end at once when an extension is accepted', () => {
    escrow([...unpaid, made('extend_deadline', 'buyer', { days: 5 })])
      .when({ type: 'acceptProposal', by: 'seller', proposal_id: PID })
      .then([accepted('seller', { payment_due_at: '2026-01-13T00:00:00.000Z' })]);
    const later = stateOf([
      ...unpaid,
      made('extend_deadline', 'buyer', { days: 5 }),
      accepted('seller', { payment_due_at: '2026-01-13T00:00:00.000Z' }),
    ]);
    expect(later.context.payment_due_at).toBe('2026-01-13T00:00:00.000Z');
    escrow([...inspecting, made('extend_inspection', 'seller', { days: 2 })])
      .when({ type: 'acceptProposal', by: 'buyer', proposal_id: PID })
      .then([accepted('buyer', { inspection_ends_at: '2026-01-07T00:00:00.000Z' })]);
  });

  it('cancels the escrow when a cancel is accepted, but not once the payment was marked', () => {
    escrow([...unpaid, made('cancel', 'seller')])
      .when({ type: 'acceptProposal', by: 'buyer', proposal_id: PID })
      .then([
        accepted('buyer'),
        { type: 'EscrowCancelled', data: { reason: 'Cancelled as both parties agreed', proposal_id: PID } },
      ]);
    escrow([...unpaid, made('cancel', 'seller'), sample.PaymentAddressAssigned, sample.PaymentMarked] as EscrowEvent[])
      .when({ type: 'acceptProposal', by: 'buyer', proposal_id: PID })
      .thenRefused('transition_not_allowed', 'before the payment is marked');
  });
});

describe('an agreed refund or split', () => {
  const agreedSplit = [...funded, split70, accepted('seller')];

  it('is listed as ready for the admins, who may resolve it but not release or refund', () => {
    const state = stateOf(agreedSplit);
    expect(readyToRelease(state, NOW)).toBe(true);
    expect(allowedActions(state, 'admin', NOW)).toEqual(['post_message', 'resolve', 'freeze']);
    expect(allowedActions(state, 'buyer', NOW)).not.toContain('propose');
    escrow(agreedSplit)
      .when({ type: 'release', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'agreed to a split');
    escrow(agreedSplit)
      .when({ type: 'refund', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'agreed to a split');
  });

  it('is executed by a resolve with no outcome text, recording the proposal', () => {
    const resolve = {
      type: 'resolveDispute',
      by: 'admin',
      outcome: '',
      resolution: null,
      seller_percent: null,
      txid: null,
    } as const;
    const [event] = escrow(agreedSplit).when(resolve).events();
    expect(event).toMatchObject({
      type: 'DisputeResolved',
      data: {
        dispute_id: null,
        outcome: SETTLED_OUTCOME,
        resolution: 'split',
        seller_percent: 70,
        seller_sats: 1_400_000,
        buyer_sats: 600_000,
        fee_sats: 30_000,
        proposal_id: PID,
      },
    });
    expect(stateOf([...agreedSplit, event as EscrowEvent]).status).toBe('released');
    escrow(agreedSplit)
      .when({ ...resolve, resolution: 'split', seller_percent: 60 })
      .thenRefused('transition_not_allowed', '70%');
    escrow(agreedSplit)
      .when({ ...resolve, outcome: 'mine', resolution: 'release' })
      .thenRefused('transition_not_allowed', 'agreed to a split');
  });

  it('waits for the addresses its money goes to', () => {
    const noRefundAddress = [...funded.filter((e) => e !== buyerRefund), split70, accepted('seller')];
    expect(readyToRelease(stateOf(noRefundAddress), NOW)).toBe(false);
    escrow(noRefundAddress)
      .when({ type: 'resolveDispute', by: 'admin', outcome: '', resolution: null, seller_percent: null, txid: null })
      .thenRefused('transition_not_allowed', 'The buyer has not set a refund address yet');
  });

  it('of a refund is executed by the admin refund, which records the proposal', () => {
    const agreedRefund = [
      ...funded,
      made('refund', 'seller', { seller_sats: 0, buyer_sats: 2_030_000 }),
      accepted('buyer'),
    ];
    const [event] = escrow(agreedRefund).when({ type: 'refund', by: 'admin', notes: '', txid: null }).events();
    expect(event).toMatchObject({ type: 'EscrowRefunded', data: { buyer_sats: 2_030_000, proposal_id: PID } });
    escrow(agreedRefund)
      .when({ type: 'release', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'agreed to a refund');
  });

  it('resolves a dispute as agreed, with no outcome text', () => {
    const disputed = [...histories.disputedFromFunded, split70, accepted('seller')] as EscrowEvent[];
    const [event] = escrow(disputed)
      .when({
        type: 'resolveDispute',
        by: 'admin',
        outcome: ' ',
        resolution: null,
        seller_percent: null,
        txid: null,
        dispute_id: DISPUTE_ID,
      })
      .events();
    expect(event).toMatchObject({
      data: { dispute_id: DISPUTE_ID, resolution: 'split', proposal_id: PID, outcome: SETTLED_OUTCOME },
    });
  });

  it('is not needed for a plain release: an escrow without one is released as before', () => {
    escrow([...funded, sellerPayout])
      .when({ type: 'release', by: 'admin', notes: '', txid: null })
      .events();
  });
});

describe('allowed_actions for proposals', () => {
  it('offers accept and decline to the other side and withdraw to the maker', () => {
    const state = stateOf([...funded, split70]);
    expect(allowedActions(state, 'seller', NOW)).toEqual(
      expect.arrayContaining(['accept_proposal', 'decline_proposal']),
    );
    expect(allowedActions(state, 'seller', NOW)).not.toContain('withdraw_proposal');
    expect(allowedActions(state, 'seller', NOW)).not.toContain('propose');
    expect(allowedActions(state, 'buyer', NOW)).toContain('withdraw_proposal');
    expect(allowedActions(state, 'buyer', NOW)).not.toContain('accept_proposal');
    expect(allowedActions(state, 'admin', NOW)).not.toContain('accept_proposal');
  });

  it('offers nothing of it while frozen', () => {
    const frozen = stateOf([...funded, split70, sample.EscrowFrozen as EscrowEvent]);
    expect(allowedActions(frozen, 'seller', NOW)).toEqual(['post_message']);
  });
});

describe('the timeline of proposals', () => {
  it("says what was proposed and what each answer answered, in the parties' words", () => {
    const events = [
      ...funded,
      split70,
      { type: 'ProposalDeclined', data: { proposal_id: PID, side: 'seller', reason: 'Too low' } },
    ] as EscrowEvent[];
    const entries = partyHistory(events.map((e, i) => ({ ...e, occurred_at: NOW, stream_version: i + 1 })));
    expect(entries.slice(-2)).toEqual([
      expect.objectContaining({
        summary: 'The buyer proposed a split, 70% to the seller and 30% to the buyer',
        actor_side: 'buyer',
        seller_sats: 1_400_000,
        buyer_sats: 600_000,
      }),
      expect.objectContaining({
        summary: 'The seller declined a split, 70% to the seller and 30% to the buyer',
        actor_side: 'seller',
        reason: 'Too low',
      }),
    ]);
  });
});
