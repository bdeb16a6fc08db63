import { describe, expect, it } from 'vitest';
import type { Escrow } from '../api/types.ts';
import { escrowActions, needsMyAction } from './escrow-actions.ts';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const ann = { id: 'user-ann' };
const sam = { id: 'user-sam' };
const at = '2026-11-25T10:00:00.000Z';

/** [what, who, the escrow's state, the actions offered, does it wait on them] */
const cases: Array<[string, { id: string }, Partial<Escrow>, string[], boolean]> = [
  ['buyer, created it, no address yet', ann, {}, ['make_payment', 'set_refund_address', 'open_dispute', 'cancel'], true],
  ['buyer, created it, address given', ann, { assigned_address: ADDRESS }, ['mark_paid', 'show_payment', 'set_refund_address', 'open_dispute', 'cancel'], true],
  ['buyer, payment marked', ann, { assigned_address: ADDRESS, payment_marked_at: at }, ['show_payment', 'set_refund_address', 'open_dispute'], false],
  ['buyer, payment rejected: may mark again', ann, { assigned_address: ADDRESS, payment_rejected_at: at }, ['mark_paid', 'show_payment', 'set_refund_address', 'open_dispute', 'cancel'], true],
  ['buyer, seller created it: no cancel', ann, { created_by: 'user-sam', creator_side: 'seller' }, ['make_payment', 'set_refund_address', 'open_dispute'], true],
  ['buyer, funded', ann, { status: 'funded', assigned_address: ADDRESS, funded_at: at }, ['confirm_receipt', 'set_refund_address', 'open_dispute'], true],
  ['buyer, funded, receipt confirmed', ann, { status: 'funded', assigned_address: ADDRESS, buyer_confirmed_at: at }, ['set_refund_address', 'open_dispute'], false],
  ['buyer, disputed, no refund address', ann, { status: 'disputed', assigned_address: ADDRESS }, ['set_refund_address'], true],
  ['buyer, disputed, refund address set', ann, { status: 'disputed', refund_address: ADDRESS }, ['set_refund_address'], false],
  ['buyer, frozen', ann, { status: 'frozen', assigned_address: ADDRESS }, [], false],
  ['buyer, released', ann, { status: 'released' }, [], false],
  ['buyer, refunded', ann, { status: 'refunded' }, [], false],
  ['buyer, cancelled', ann, { status: 'cancelled' }, [], false],
  ['seller, buyer created it, unpaid', sam, { side: 'seller' }, ['set_payout_address', 'open_dispute'], false],
  ['seller, created it, unpaid', sam, { side: 'seller', created_by: 'user-sam', creator_side: 'seller' }, ['set_payout_address', 'open_dispute', 'cancel'], false],
  ['seller, created it, payment marked: no cancel', sam, { side: 'seller', created_by: 'user-sam', creator_side: 'seller', assigned_address: ADDRESS, payment_marked_at: at }, ['set_payout_address', 'open_dispute'], false],
  ['seller, funded, no payout address', sam, { side: 'seller', status: 'funded' }, ['set_payout_address', 'open_dispute'], true],
  ['seller, funded, payout address set', sam, { side: 'seller', status: 'funded', payout_address: ADDRESS }, ['set_payout_address', 'open_dispute'], false],
  ['seller, disputed', sam, { side: 'seller', status: 'disputed', payout_address: ADDRESS }, ['set_payout_address'], false],
  ['seller, frozen', sam, { side: 'seller', status: 'frozen' }, [], false],
  ['seller, released', sam, { side: 'seller', status: 'released' }, [], false],
  ['admin, unpaid: acts from the console', { id: 'root' }, { side: 'admin' }, [], false],
  ['admin, funded', { id: 'root' }, { side: 'admin', status: 'funded' }, [], false],
];

describe('the actions offered on an escrow', () => {
  it.each(cases)('%s', (_what, user, state, offered, waits) => {
    const escrow = escrowFixture(state);
    expect(escrowActions(escrow, user)).toEqual(offered);
    expect(needsMyAction(escrow, user)).toBe(waits);
  });

  it('never offers the buyer\'s actions to the seller, or the seller\'s to the buyer, in any state', () => {
    const statuses = ['pending_payment', 'funded', 'disputed', 'frozen', 'released', 'refunded', 'cancelled'] as const;
    for (const status of statuses) {
      for (const assigned_address of [null, ADDRESS]) {
        const seller = escrowActions(escrowFixture({ side: 'seller', status, assigned_address }), sam);
        expect(seller.filter((a) => ['make_payment', 'mark_paid', 'confirm_receipt', 'show_payment', 'set_refund_address'].includes(a))).toEqual([]);
        const buyer = escrowActions(escrowFixture({ status, assigned_address }), ann);
        expect(buyer).not.toContain('set_payout_address');
      }
    }
  });
});
