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
    ['waiting for payment', {}, null],
    ['payment marked', { payment_marked_at: at }, 'Payment marked, being checked by an admin'],
    ['payment rejected, to the buyer', { payment_rejected_at: at }, 'Payment not confirmed: mark it as paid again'],
    ['payment rejected, to the seller', { side: 'seller', payment_rejected_at: at }, 'Payment not confirmed; waiting for the buyer to mark it again'],
    ['marked again after a rejection', { payment_rejected_at: at, payment_marked_at: at }, 'Payment marked, being checked by an admin'],
    ['funded', { status: 'funded', funded_at: at }, null],
    ['receipt confirmed', { status: 'funded', buyer_confirmed_at: at }, 'Receipt confirmed by the buyer'],
    ['disputed', { status: 'disputed', dispute: dispute({ status: 'open', resolution: null, seller_percent: null }) }, 'Dispute opened by the seller'],
    ['split', { status: 'released', dispute: dispute() }, 'Split after a dispute: 60% to the seller, 40% to the buyer'],
    ['released after a dispute settled for the seller', { status: 'released', dispute: dispute({ resolution: 'release', seller_percent: null }) }, null],
    ['cancelled', { status: 'cancelled' }, null],
  ])('%s', (_what, state, note) => {
    expect(statusNote(escrowFixture(state))).toBe(note);
  });
});

describe('the step tracker', () => {
  const states = (state: Partial<Escrow>) => trackerSteps(escrowFixture(state)).map((s) => `${s.label}:${s.state}`);
  it('moves through opened, paid, verified, receipt confirmed and how it ended', () => {
    expect(states({})).toEqual(['Opened:done', 'Paid:current', 'Verified:upcoming', 'Receipt confirmed:upcoming', 'Released:upcoming']);
    expect(states({ payment_marked_at: at })).toEqual(['Opened:done', 'Paid:done', 'Verified:current', 'Receipt confirmed:upcoming', 'Released:upcoming']);
    expect(states({ status: 'funded', funded_at: at })).toEqual(['Opened:done', 'Paid:done', 'Verified:done', 'Receipt confirmed:current', 'Released:upcoming']);
    expect(states({ status: 'released', funded_at: at, buyer_confirmed_at: at })).toEqual(['Opened:done', 'Paid:done', 'Verified:done', 'Receipt confirmed:done', 'Released:done']);
    expect(states({ status: 'released', funded_at: at, dispute: dispute() })).toEqual(['Opened:done', 'Paid:done', 'Verified:done', 'Receipt confirmed:skipped', 'Split:done']);
    expect(states({ status: 'refunded', funded_at: at })).toEqual(['Opened:done', 'Paid:done', 'Verified:done', 'Receipt confirmed:skipped', 'Refunded:done']);
    expect(states({ status: 'cancelled' })).toEqual(['Opened:done', 'Paid:skipped', 'Verified:skipped', 'Receipt confirmed:skipped', 'Cancelled:done']);
  });

  it('halts before the next step while disputed or frozen, instead of calling that step next', () => {
    expect(states({ status: 'disputed', funded_at: at })).toEqual(['Opened:done', 'Paid:done', 'Verified:done', 'Disputed:halted', 'Receipt confirmed:upcoming', 'Released:upcoming']);
    expect(states({ status: 'frozen', payment_marked_at: at })).toEqual(['Opened:done', 'Paid:done', 'Frozen:halted', 'Verified:upcoming', 'Receipt confirmed:upcoming', 'Released:upcoming']);
  });
});

describe('the dashboard filters', () => {
  const ann = { id: 'user-ann' };
  const list = [
    escrowFixture({ id: 'unpaid' }),
    escrowFixture({ id: 'marked', assigned_address: 'bc1q', payment_marked_at: at }),
    escrowFixture({ id: 'released', status: 'released' }),
    escrowFixture({ id: 'cancelled', status: 'cancelled' }),
    escrowFixture({ id: 'frozen', status: 'frozen' }),
  ];
  it.each([
    ['needs_action', ['unpaid']],
    ['active', ['unpaid', 'marked', 'frozen']],
    ['closed', ['released', 'cancelled']],
    ['all', ['unpaid', 'marked', 'released', 'cancelled', 'frozen']],
  ] as const)('%s', (filter, ids) => {
    expect(list.filter((e) => matchesFilter(e, ann, filter)).map((e) => e.id)).toEqual(ids);
  });
});
