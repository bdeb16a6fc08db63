import { describe, expect, it } from 'vitest';
import type { Escrow, EscrowDispute } from '../api/types.ts';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import { matchesFilter, statusNote } from './escrow-progress.ts';
import { trackerSteps } from './tracker-steps.ts';

const at = '2026-11-25T10:00:00.000Z';
const dispute = (over: Partial<EscrowDispute> = {}): EscrowDispute => ({
  id: 'd1',
  reason: 'Broken',
  opened_by_side: 'seller',
  opened_at: at,
  status: 'resolved',
  outcome: 'Split',
  resolution: 'split',
  seller_percent: 60,
  resolved_at: at,
  ...over,
});

describe('the second line under the badge', () => {
  it.each<[string, Partial<Escrow>, string | null]>([
    ['waiting for agreement', { agreed_at: null }, 'Waiting for agreement to the terms'],
    ['waiting for payment', { agreed_at: at }, null],
    ['payment marked', { payment_marked_at: at }, 'Payment marked, being checked by an admin'],
    ['payment rejected, to the buyer', { payment_rejected_at: at }, 'Payment not confirmed: mark it as paid again'],
    [
      'payment rejected, to the seller',
      { side: 'seller', payment_rejected_at: at },
      'Payment not confirmed; waiting for the buyer to mark it again',
    ],
    [
      'marked again after a rejection',
      { payment_rejected_at: at, payment_marked_at: at },
      'Payment marked, being checked by an admin',
    ],
    ['funded', { status: 'funded', agreed_at: at, funded_at: at }, null],
    [
      'waiting for the seller to agree',
      { status: 'funded', funded_at: at, agreed_at: null },
      'Waiting for agreement to the terms',
    ],
    ['shipped', { status: 'funded', agreed_at: at, shipped_at: at }, 'Shipped'],
    [
      'being inspected',
      { status: 'funded', agreed_at: at, shipped_at: at, inspection_ends_at: at },
      'Received; being inspected',
    ],
    ['receipt confirmed', { status: 'funded', agreed_at: at, buyer_confirmed_at: at }, 'Receipt confirmed'],
    [
      'disputed',
      { status: 'disputed', dispute: dispute({ status: 'open', resolution: null, seller_percent: null }) },
      'Dispute opened by the seller',
    ],
    ['split', { status: 'released', dispute: dispute() }, 'Split: 60% to the seller, 40% to the buyer'],
    [
      'released after a dispute settled for the seller',
      { status: 'released', dispute: dispute({ resolution: 'release', seller_percent: null }) },
      null,
    ],
    ['cancelled', { status: 'cancelled' }, null],
    [
      'declined by the seller before any payment',
      { status: 'cancelled', creator_side: 'buyer', declined_at: at },
      'Declined by the seller',
    ],
    [
      'declined by the buyer after paying',
      { status: 'funded', creator_side: 'seller', funded_at: at, declined_at: at },
      'Declined by the buyer: the money goes back to the buyer',
    ],
  ])('%s', (_what, state, note) => {
    expect(statusNote(escrowFixture(state))).toBe(note);
  });
});

describe('the step tracker', () => {
  const now = new Date('2026-11-26T10:00:00.000Z');
  const deal = {
    agreed_at: null,
    shipped_at: null,
    shipment: null,
    inspection_days: 3,
    inspection_ends_at: null,
    proposals: [],
  };
  const states = (state: Partial<Escrow>) =>
    trackerSteps(escrowFixture({ ...deal, ...state }), now).map((s) => `${s.label}:${s.state}`);
  const funded = { status: 'funded', agreed_at: at, payment_marked_at: at, funded_at: at } as const;
  it('moves through agreement, payment, shipment, receipt, the inspection and acceptance', () => {
    expect(states({})).toEqual([
      'Opened:done',
      'Agreed:current',
      'Paid:upcoming',
      'Verified:upcoming',
      'Shipped:upcoming',
      'Received:upcoming',
      'Inspection (3 days):upcoming',
      'Accepted:upcoming',
      'Released:upcoming',
    ]);
    expect(states({ agreed_at: at, payment_marked_at: at }).slice(1, 5)).toEqual([
      'Agreed:done',
      'Paid:done',
      'Verified:current',
      'Shipped:upcoming',
    ]);
    expect(states({ ...funded, shipped_at: at }).slice(4, 7)).toEqual([
      'Shipped:done',
      'Received:current',
      'Inspection (3 days):upcoming',
    ]);
    expect(states({ ...funded, shipped_at: at, inspection_ends_at: '2026-11-28T12:00:00.000Z' }).slice(5, 8)).toEqual([
      'Received:done',
      'Inspection ends in 3 days:current',
      'Accepted:upcoming',
    ]);
    expect(states({ ...funded, shipped_at: at, inspection_ends_at: at, buyer_confirmed_at: at }).slice(5)).toEqual([
      'Received:done',
      'Inspection (3 days):done',
      'Accepted:done',
      'Released:current',
    ]);
  });

  it('leaves the inspection out when there is none, and skips what a closed deal never reached', () => {
    expect(states({ inspection_days: 0 })).not.toContain('Inspection (0 days):upcoming');
    expect(states({ status: 'cancelled' })).toEqual([
      'Opened:done',
      'Agreed:skipped',
      'Paid:skipped',
      'Verified:skipped',
      'Shipped:skipped',
      'Received:skipped',
      'Inspection (3 days):skipped',
      'Accepted:skipped',
      'Cancelled:done',
    ]);
    expect(states({ ...funded, status: 'refunded' }).at(-1)).toBe('Refunded:done');
    expect(states({ ...funded, status: 'released', dispute: dispute() }).at(-1)).toBe('Split:done');
  });

  it('shows declined terms as the end of the deal: cancelled before any payment, refunded after one', () => {
    expect(states({ status: 'cancelled', declined_at: at })).toEqual([
      'Opened:done',
      'Declined:done',
      'Paid:skipped',
      'Verified:skipped',
      'Cancelled:done',
    ]);
    expect(states({ ...funded, agreed_at: null, declined_at: at })).toEqual([
      'Opened:done',
      'Declined:done',
      'Paid:done',
      'Verified:done',
      'Refunded:current',
    ]);
    expect(states({ ...funded, agreed_at: null, declined_at: at, status: 'refunded' }).at(-1)).toBe('Refunded:done');
  });

  it('halts before the next step while disputed or frozen, instead of calling that step next', () => {
    expect(states({ ...funded, status: 'disputed' }).slice(3, 6)).toEqual([
      'Verified:done',
      'Disputed:halted',
      'Shipped:upcoming',
    ]);
    expect(states({ status: 'frozen', agreed_at: at, payment_marked_at: at }).slice(2, 5)).toEqual([
      'Paid:done',
      'Frozen:halted',
      'Verified:upcoming',
    ]);
  });
});

describe('the dashboard filters', () => {
  const list = [
    escrowFixture({ id: 'unpaid' }),
    escrowFixture({
      id: 'marked',
      assigned_address: 'bc1q',
      payment_marked_at: at,
      allowed_actions: ['set_refund_address', 'open_dispute', 'post_message'],
    }),
    escrowFixture({ id: 'released', status: 'released', allowed_actions: ['post_message'] }),
    escrowFixture({ id: 'cancelled', status: 'cancelled', allowed_actions: [] }),
    escrowFixture({ id: 'frozen', status: 'frozen', allowed_actions: ['post_message'] }),
  ];
  it.each([
    ['needs_action', ['unpaid']],
    ['active', ['unpaid', 'marked', 'frozen']],
    ['closed', ['released', 'cancelled']],
    ['all', ['unpaid', 'marked', 'released', 'cancelled', 'frozen']],
  ] as const)('%s', (filter, ids) => {
    expect(list.filter((e) => matchesFilter(e, filter)).map((e) => e.id)).toEqual(ids);
  });
});
