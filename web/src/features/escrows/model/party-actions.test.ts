import { describe, expect, it } from 'vitest';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';
import type { Escrow } from '../api/types.ts';
import { needsMyAction, nextAction, pageActions } from './party-actions.ts';

const at = '2026-11-25T10:00:00.000Z';
const with_ = (allowed: Escrow['allowed_actions'], over: Partial<Escrow> = {}) =>
  escrowFixture({ allowed_actions: allowed, ...over });

describe('the buttons of the next-step box', () => {
  it.each<[string, Partial<Escrow>, Escrow['allowed_actions'], string[]]>([
    [
      'a seller asked to agree',
      { side: 'seller' },
      ['agree', 'decline', 'set_payout_address', 'post_message'],
      ['agree', 'set_payout_address', 'decline'],
    ],
    [
      'a buyer asked to agree: agree and pay in one click',
      {},
      ['agree', 'decline', 'cancel', 'post_message'],
      ['agree_and_pay', 'decline', 'cancel'],
    ],
    [
      'a buyer asked to agree who may also pay at once: one button, not two',
      {},
      ['agree', 'decline', 'request_payment', 'set_refund_address'],
      ['agree_and_pay', 'set_refund_address', 'decline'],
    ],
    [
      'a buyer who may mark the payment: where to pay beside it',
      {},
      ['mark_paid', 'set_refund_address', 'open_dispute'],
      ['mark_paid', 'show_payment', 'set_refund_address', 'open_dispute'],
    ],
    [
      'a seller to ship',
      { side: 'seller' },
      ['ship', 'set_payout_address', 'propose', 'open_dispute', 'post_message'],
      ['ship', 'set_payout_address', 'propose', 'open_dispute'],
    ],
    ['proposal answers go on the proposal, not here', {}, ['accept_proposal', 'decline_proposal', 'post_message'], []],
    [
      'an admin acts from the console',
      { side: 'admin' },
      ['release', 'refund', 'freeze', 'cancel', 'post_message'],
      [],
    ],
    ['nothing allowed, nothing offered', {}, [], []],
    [
      "a split both agreed to: no deal steps, the payout is the admins' to make",
      {
        proposals: [
          {
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
          },
        ],
      },
      ['confirm_receipt', 'set_refund_address', 'open_dispute'],
      ['set_refund_address', 'open_dispute'],
    ],
    [
      'an extension both agreed to changes nothing of the steps',
      {
        proposals: [
          {
            id: 'p1',
            kind: 'extend_inspection',
            status: 'accepted',
            proposed_by: 'buyer',
            seller_percent: null,
            days: 3,
            note: null,
            seller_sats: null,
            buyer_sats: null,
            created_at: at,
          },
        ],
      },
      ['confirm_receipt', 'open_dispute'],
      ['confirm_receipt', 'open_dispute'],
    ],
  ])('%s', (_what, over, allowed, buttons) => {
    expect(pageActions(with_(allowed, over))).toEqual(buttons);
  });
});

describe('the next step and "Needs my action"', () => {
  it('is the first allowed action that moves the deal on', () => {
    expect(nextAction(with_(['set_refund_address', 'receive', 'open_dispute']))).toBe('receive');
    expect(nextAction(with_(['agree', 'decline'], { side: 'seller' }))).toBe('agree');
    expect(nextAction(with_(['set_refund_address', 'open_dispute', 'propose']))).toBeNull();
  });

  it('waits on this user for a step, an answer to a proposal, or a payout address once the money is held', () => {
    expect(needsMyAction(with_(['confirm_receipt', 'open_dispute']))).toBe(true);
    expect(needsMyAction(with_(['decline_proposal', 'accept_proposal']))).toBe(true);
    expect(needsMyAction(with_(['set_payout_address', 'propose'], { side: 'seller', funded_at: at }))).toBe(true);
    expect(
      needsMyAction(
        with_(['set_payout_address', 'propose'], { side: 'seller', funded_at: at, payout_address: 'bc1q' }),
      ),
    ).toBe(false);
    expect(needsMyAction(with_(['set_payout_address', 'cancel'], { side: 'seller' }))).toBe(false);
    expect(needsMyAction(with_(['post_message']))).toBe(false);
  });

  it('waits on the buyer for a refund address when money is to come back: terms declined after payment, or a refund or split agreed', () => {
    const accepted = (kind: 'refund' | 'split' | 'extend_inspection'): Escrow['proposals'] => [
      {
        id: 'p1',
        kind,
        status: 'accepted',
        proposed_by: 'seller',
        seller_percent: kind === 'split' ? 50 : null,
        days: kind === 'extend_inspection' ? 2 : null,
        note: null,
        seller_sats: null,
        buyer_sats: null,
        created_at: at,
      },
    ];
    expect(needsMyAction(with_(['set_refund_address', 'post_message'], { funded_at: at, refund_due: true }))).toBe(
      true,
    );
    expect(
      needsMyAction(
        with_(['set_refund_address', 'post_message'], { funded_at: at, refund_due: true, refund_address: 'bc1q' }),
      ),
    ).toBe(false);
    expect(
      needsMyAction(with_(['set_refund_address', 'post_message'], { funded_at: at, proposals: accepted('refund') })),
    ).toBe(true);
    expect(
      needsMyAction(with_(['set_refund_address', 'post_message'], { funded_at: at, proposals: accepted('split') })),
    ).toBe(true);
    expect(
      needsMyAction(
        with_(['set_refund_address', 'post_message'], { funded_at: at, proposals: accepted('extend_inspection') }),
      ),
    ).toBe(false);
    expect(needsMyAction(with_(['set_refund_address', 'open_dispute'], { funded_at: at }))).toBe(false);
  });
});
