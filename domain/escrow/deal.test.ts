import { describe, expect, it } from 'vitest';
import { escrowAggregate } from '../aggregates.ts';
import { given, NOW } from '../testing/given.ts';
import { allowedActions, readyToRelease, refundDue } from './allowed-actions.ts';
import type { EscrowEvent } from './events.ts';
import { foldEscrow } from './state.ts';
import { sample, sellerPayout } from './test-fixtures.ts';

/** Escrows made under this round's rules (inspection_days set): agreement, shipment and inspection apply. */
const created = (creator: 'buyer' | 'seller', inspection_days = 3): EscrowEvent => ({
  type: 'EscrowCreated',
  data: { ...sample.EscrowCreated.data, creator_side: creator, inspection_days },
});
const agreedBy = (side: 'buyer' | 'seller'): EscrowEvent => ({ type: 'TermsAgreed', data: { side } });
const address = sample.PaymentAddressAssigned as EscrowEvent;
const funded = (creator: 'buyer' | 'seller' = 'buyer', days = 3): EscrowEvent[] => [
  created(creator, days),
  agreedBy(creator === 'buyer' ? 'seller' : 'buyer'),
  address,
  sample.PaymentMarked,
  sample.PaymentVerified,
];
const shipped: EscrowEvent = {
  type: 'ShipmentRecorded',
  data: { method: 'shipping', carrier: 'DHL', tracking: 'JD1', note: null },
};
const received = (ends = '2026-01-04T00:00:00.000Z'): EscrowEvent => ({
  type: 'GoodsReceived',
  data: { inspection_ends_at: ends },
});
const escrow = (past: EscrowEvent[], now = NOW) => given(escrowAggregate, past, { now });
const stateOf = (events: EscrowEvent[]) => foldEscrow(events.map((e) => ({ ...e, occurred_at: NOW })));

describe('agreement', () => {
  it('lets the counterparty agree once; the creator agreed by creating', () => {
    escrow([created('seller')])
      .when({ type: 'agree', by: 'buyer' })
      .then([agreedBy('buyer')]);
    escrow([created('seller')])
      .when({ type: 'agree', by: 'seller' })
      .thenRefused('forbidden', /counterparty/);
    escrow([created('seller'), agreedBy('buyer')])
      .when({ type: 'agree', by: 'buyer' })
      .thenRefused('transition_not_allowed', 'You already agreed');
  });

  it('records the buyer agreement first when Make Payment on a seller-created escrow comes before it', () => {
    const take = {
      type: 'requestPayment',
      by: 'buyer',
      address_id: sample.PaymentAddressAssigned.data.address_id,
      address: 'bc1qx',
    } as const;
    const assigned = {
      type: 'PaymentAddressAssigned',
      data: { address_id: take.address_id, address: 'bc1qx', assigned_via: 'buyer' },
    } as const;
    escrow([created('seller')])
      .when(take)
      .then([agreedBy('buyer'), assigned]);
    escrow([created('seller'), agreedBy('buyer')])
      .when(take)
      .then([assigned]);
    const declined = { type: 'TermsDeclined', data: { side: 'buyer', reason: 'no' } } as const;
    escrow([created('seller'), declined])
      .when(take)
      .thenRefused('transition_not_allowed');
  });

  it('cancels an unpaid escrow on decline, and makes a paid one a refund the admins owe', () => {
    const declined = { type: 'decline', by: 'seller', reason: ' too far ' } as const;
    escrow([created('buyer')])
      .when(declined)
      .then([{ type: 'TermsDeclined', data: { side: 'seller', reason: 'too far' } }]);
    expect(stateOf([created('buyer'), { type: 'TermsDeclined', data: { side: 'seller', reason: 'x' } }]).status).toBe(
      'cancelled',
    );
    const paid = stateOf([
      created('buyer'),
      address,
      sample.PaymentMarked,
      sample.PaymentVerified,
      {
        type: 'TermsDeclined',
        data: { side: 'seller', reason: 'x' },
      },
    ]);
    expect(paid.status).toBe('funded');
    expect(refundDue(paid)).toBe(true);
    expect(allowedActions(paid, 'admin', NOW)).not.toContain('release');
    escrow([created('buyer')])
      .when({ type: 'decline', by: 'seller', reason: ' ' })
      .thenRefused('invalid_input', 'reason');
  });
});

describe('shipment', () => {
  it('records what the seller says, checked as the contract says', () => {
    escrow(funded())
      .when({ type: 'ship', by: 'seller', method: 'shipping', carrier: ' DHL ', tracking: 'JD1' })
      .then([shipped]);
    escrow(funded())
      .when({ type: 'ship', by: 'seller', method: 'shipping' })
      .thenRefused('invalid_input', 'carrier is required');
    escrow(funded()).when({ type: 'ship', by: 'seller', method: 'post' }).thenRefused('invalid_input', 'method');
    escrow(funded())
      .when({ type: 'ship', by: 'seller', method: 'digital', tracking: 'x'.repeat(101) })
      .thenRefused('invalid_input', 'tracking');
    escrow(funded()).when({ type: 'ship', by: 'buyer', method: 'digital' }).thenRefused('forbidden');
    escrow([...funded(), shipped])
      .when({ type: 'ship', by: 'seller', method: 'digital' })
      .thenRefused('transition_not_allowed', 'already');
  });

  it('refuses a shipment before the seller agreed', () => {
    const unagreed = [created('buyer'), address, sample.PaymentMarked, sample.PaymentVerified];
    escrow(unagreed)
      .when({ type: 'ship', by: 'seller', method: 'digital' })
      .thenRefused('transition_not_allowed', 'Agree');
  });
});

describe('inspection', () => {
  it('starts the period on receipt, after a shipment only', () => {
    escrow([...funded(), shipped])
      .when({ type: 'receive', by: 'buyer' })
      .then([received('2026-01-04T00:00:00.000Z')]);
    escrow(funded())
      .when({ type: 'receive', by: 'buyer' })
      .thenRefused('transition_not_allowed', 'not recorded a shipment');
  });

  it('accepts on receipt when the period is 0 days', () => {
    escrow([...funded('buyer', 0), shipped])
      .when({ type: 'receive', by: 'buyer' })
      .then([received(NOW), { type: 'ReceiptConfirmed', data: {} }]);
  });

  it('lets the system accept only once the period ended', () => {
    const running = [...funded(), shipped, received()];
    escrow(running, '2026-01-03T23:59:59.000Z')
      .when({ type: 'acceptAfterInspection', by: 'system' })
      .thenRefused('transition_not_allowed', 'not ended');
    escrow(running, '2026-01-04T00:00:00.000Z')
      .when({ type: 'acceptAfterInspection', by: 'system' })
      .then([{ type: 'ReceiptConfirmed', data: { automatic: true } }]);
    escrow(running).when({ type: 'acceptAfterInspection', by: 'buyer' }).thenRefused('forbidden');
  });

  it('offers no dispute once receipt is confirmed, and counts the escrow ready once the payout address is set', () => {
    const accepted = [...funded(), shipped, received(), { type: 'ReceiptConfirmed', data: {} } as EscrowEvent];
    escrow(accepted).when({ type: 'openDispute', by: 'buyer', reason: 'late' }).thenRefused('transition_not_allowed');
    expect(allowedActions(stateOf(accepted), 'buyer', NOW)).not.toContain('open_dispute');
    expect(readyToRelease(stateOf(accepted), NOW)).toBe(false);
    expect(readyToRelease(stateOf([...accepted, sellerPayout]), NOW)).toBe(true);
  });
});

describe('allowedActions on the deal', () => {
  it('offers agree and decline to the counterparty only, and payment (which agrees) to the buyer', () => {
    const state = stateOf([created('seller')]);
    expect(allowedActions(state, 'buyer', NOW)).toEqual([
      'agree',
      'decline',
      'request_payment',
      'set_refund_address',
      'open_dispute',
      'propose',
      'post_message',
    ]);
    expect(allowedActions(state, 'seller', NOW)).toEqual([
      'set_payout_address',
      'open_dispute',
      'cancel',
      'propose',
      'post_message',
    ]);
    expect(allowedActions(stateOf([created('seller'), agreedBy('buyer')]), 'buyer', NOW)).toContain('request_payment');
  });

  it('offers ship to the agreed seller, then receive and confirm_receipt to the buyer', () => {
    expect(allowedActions(stateOf(funded()), 'seller', NOW)).toContain('ship');
    expect(allowedActions(stateOf(funded()), 'buyer', NOW)).not.toContain('receive');
    expect(allowedActions(stateOf([...funded(), shipped]), 'buyer', NOW)).toEqual(
      expect.arrayContaining(['receive', 'confirm_receipt', 'open_dispute']),
    );
  });
});
