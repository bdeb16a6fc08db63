import { describe, expect, it } from 'vitest';
import type { EscrowActor } from './actors.ts';
import { allowedActions } from './allowed-actions.ts';
import type { EscrowEvent } from './events.ts';
import { foldEscrow } from './state.ts';
import { histories, sample } from './test-fixtures.ts';

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
});
