import { describe, expect, it } from 'vitest';
import { escrowAggregate } from '../aggregates.ts';
import type { EscrowEvent } from './events.ts';
import type { EscrowCommand } from './decide.ts';
import { given, NOW } from '../testing/given.ts';
import { ADDRESS_ID, CREATOR_ID, DISPUTE_ID, ESCROW_ID, histories, sample, TXID } from './test-fixtures.ts';

const create = (overrides: Partial<Extract<EscrowCommand, { type: 'create' }>> = {}): EscrowCommand => ({
  type: 'create',
  by: 'buyer',
  escrow_id: ESCROW_ID,
  created_by: CREATOR_ID,
  creator_side: 'buyer',
  creator_email: 'Buyer@Example.com',
  counterparty_email: 'seller@example.com',
  product_service: ' Laptop ',
  description: 'A used laptop',
  amount_cents: 100_000,
  deadline_days: 7,
  pricing: { rate_cents: 5_000_000, fee_bps: 150 },
  ...overrides,
});
const escrow = (past: EscrowEvent[], now = NOW) => given(escrowAggregate, past, { now });

describe('create', () => {
  it('records the figures in force: fee half-up, total, satoshis rounded up, deadline', () => {
    escrow([]).when(create()).then([
      {
        type: 'EscrowCreated',
        data: {
          escrow_id: ESCROW_ID,
          created_by: CREATOR_ID,
          creator_side: 'buyer',
          buyer_email: 'buyer@example.com',
          seller_email: 'seller@example.com',
          product_service: 'Laptop',
          description: 'A used laptop',
          amount_cents: 100_000,
          fee_bps: 150,
          fee_cents: 1_500,
          total_cents: 101_500,
          rate_cents: 5_000_000,
          amount_sats: 2_030_000,
          deadline_days: 7,
          payment_due_at: '2026-01-08T00:00:00.000Z',
        },
      },
    ]);
  });

  it('puts the creator on the seller side when a seller creates it', () => {
    const [event] = escrow([]).when(create({ by: 'seller', creator_side: 'seller', counterparty_email: 'b@example.com', creator_email: 's@example.com' })).events();
    expect(event).toMatchObject({ data: { buyer_email: 'b@example.com', seller_email: 's@example.com' } });
  });

  it.each([
    [{ counterparty_email: 'BUYER@example.com' }, 'must differ from your own'],
    [{ deadline_days: 0 }, '1 to 90'],
    [{ deadline_days: 91 }, '1 to 90'],
    [{ amount_cents: 0 }, 'more than 0'],
    [{ product_service: '   ' }, 'product_service is required'],
  ])('refuses %o', (overrides, detail) => {
    escrow([]).when(create(overrides)).thenRefused('invalid_input', new RegExp(detail));
  });

  it('refuses to create the same escrow twice', () => {
    escrow([sample.EscrowCreated]).when(create()).thenRefused('conflict');
  });
});

describe('payment', () => {
  it('lets the buyer take an address, and nobody take a second', () => {
    escrow(histories.pendingFresh)
      .when({ type: 'assignAddress', by: 'buyer', address_id: ADDRESS_ID, address: 'bc1qx' })
      .then([{ type: 'PaymentAddressAssigned', data: { address_id: ADDRESS_ID, address: 'bc1qx', assigned_via: 'buyer' } }]);
    escrow(histories.pendingFresh).when({ type: 'assignAddress', by: 'seller', address_id: ADDRESS_ID, address: 'bc1qx' }).thenRefused('forbidden');
    escrow([...histories.pendingFresh, sample.PaymentAddressAssigned])
      .when({ type: 'assignAddress', by: 'admin', address_id: ADDRESS_ID, address: 'bc1qx' })
      .thenRefused('conflict', 'already has a payment address');
  });

  it('lets only the buyer mark it paid, and only once an address is assigned', () => {
    escrow(histories.pendingFresh).when({ type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] }).thenRefused('transition_not_allowed', 'request one first');
    const withAddress = [...histories.pendingFresh, sample.PaymentAddressAssigned];
    escrow(withAddress).when({ type: 'markPaid', by: 'seller', notes: 'sent', evidence: [] }).thenRefused('forbidden', 'Only the buyer');
    escrow(withAddress).when({ type: 'markPaid', by: 'buyer', notes: ' sent ', evidence: [] }).then([{ type: 'PaymentMarked', data: { notes: 'sent', evidence: [] } }]);
  });

  it('lets an admin verify or reject a marked payment, not an unmarked one', () => {
    escrow(histories.pendingMarked).when({ type: 'verifyPayment', by: 'admin', notes: 'seen', txid: TXID }).then([{ type: 'PaymentVerified', data: { notes: 'seen', txid: TXID } }]);
    escrow(histories.pendingMarked).when({ type: 'rejectPayment', by: 'admin', notes: 'not found' }).then([{ type: 'PaymentRejected', data: { notes: 'not found' } }]);
    escrow(histories.pendingMarked).when({ type: 'verifyPayment', by: 'buyer', notes: '', txid: null }).thenRefused('forbidden');
    escrow([...histories.pendingFresh, sample.PaymentAddressAssigned]).when({ type: 'verifyPayment', by: 'admin', notes: '', txid: null }).thenRefused('transition_not_allowed');
  });
});

describe('release and refund', () => {
  it('releases the principal to the seller and keeps the fee', () => {
    const [event] = escrow(histories.funded).when({ type: 'release', by: 'admin', notes: 'delivered', txid: TXID }).events();
    expect(event).toEqual({ type: 'EscrowReleased', data: { notes: 'delivered', txid: TXID, seller_sats: 2_000_000, fee_sats: 30_000 } });
  });

  it('refunds all of it to the buyer', () => {
    const [event] = escrow(histories.funded).when({ type: 'refund', by: 'admin', notes: 'no delivery', txid: null }).events();
    expect(event).toEqual({ type: 'EscrowRefunded', data: { notes: 'no delivery', txid: null, buyer_sats: 2_030_000, fee_sats: 0 } });
  });

  it('needs the payout or refund address', () => {
    const bare = [sample.EscrowCreated, sample.PaymentAddressAssigned, sample.PaymentMarked, sample.PaymentVerified];
    escrow(bare).when({ type: 'release', by: 'admin', notes: '', txid: null }).thenRefused('transition_not_allowed', 'payout address');
    escrow(bare).when({ type: 'refund', by: 'admin', notes: '', txid: null }).thenRefused('transition_not_allowed', 'refund address');
  });

  it('names the status when the lifecycle refuses', () => {
    escrow(histories.pendingFresh).when({ type: 'release', by: 'admin', notes: '', txid: null }).thenRefused('transition_not_allowed', 'Cannot release an escrow that is pending_payment');
    escrow(histories.released).when({ type: 'refund', by: 'admin', notes: '', txid: null }).thenRefused('transition_not_allowed', 'released');
  });

  it('lets only the buyer confirm receipt, once', () => {
    escrow(histories.funded).when({ type: 'confirmReceipt', by: 'buyer' }).then([{ type: 'ReceiptConfirmed', data: {} }]);
    escrow(histories.funded).when({ type: 'confirmReceipt', by: 'seller' }).thenRefused('forbidden');
    escrow([...histories.funded, sample.ReceiptConfirmed]).when({ type: 'confirmReceipt', by: 'buyer' }).thenRefused('transition_not_allowed');
  });

  it('records the payout address on the caller side', () => {
    escrow(histories.pendingFresh).when({ type: 'setPayoutAddress', by: 'buyer', address: 'bc1qr' }).then([{ type: 'PayoutAddressSet', data: { side: 'buyer', address: 'bc1qr' } }]);
    escrow(histories.pendingFresh).when({ type: 'setPayoutAddress', by: 'admin', address: 'bc1qr' }).thenRefused('forbidden');
  });
});

describe('disputes', () => {
  const resolve = (resolution: 'release' | 'refund' | 'split' | null, seller_percent: number | null = null): EscrowCommand => ({
    type: 'resolveDispute',
    by: 'admin',
    outcome: 'Agreed',
    resolution,
    seller_percent,
    txid: null,
  });

  it('lets a party open one with a reason', () => {
    escrow(histories.funded).when({ type: 'openDispute', by: 'seller', dispute_id: DISPUTE_ID, reason: ' Not paid ' }).then([
      { type: 'DisputeOpened', data: { dispute_id: DISPUTE_ID, reason: 'Not paid', opened_by_side: 'seller' } },
    ]);
    escrow(histories.funded).when({ type: 'openDispute', by: 'buyer', dispute_id: DISPUTE_ID, reason: ' ' }).thenRefused('invalid_input', 'reason');
    escrow(histories.funded).when({ type: 'openDispute', by: 'admin', dispute_id: DISPUTE_ID, reason: 'x' }).thenRefused('forbidden');
  });

  it('splits the principal, keeps the fee, and conserves satoshis', () => {
    const [event] = escrow(histories.disputedFromFunded).when(resolve('split', 60)).events();
    expect(event).toMatchObject({ type: 'DisputeResolved', data: { resolution: 'split', seller_percent: 60, seller_sats: 1_200_000, buyer_sats: 800_000, fee_sats: 30_000 } });
    const d = (event as Extract<EscrowEvent, { type: 'DisputeResolved' }>).data;
    expect(d.seller_sats + d.buyer_sats + d.fee_sats).toBe(2_030_000);
  });

  it('refuses a split without a valid percentage', () => {
    for (const pct of [null, 0, 100]) escrow(histories.disputedFromFunded).when(resolve('split', pct)).thenRefused('invalid_input', '1 to 99');
  });

  it('moves no money when the dispute was opened before any payment', () => {
    escrow(histories.disputedFromPending).when(resolve('release')).thenRefused('transition_not_allowed', 'No payment was verified');
    const [event] = escrow(histories.disputedFromPending).when(resolve(null)).events();
    expect(event).toMatchObject({ data: { resolution: null, seller_sats: 0, buyer_sats: 0, fee_sats: 0 } });
  });
});

describe('cancel, expire, freeze', () => {
  it('lets the creator cancel before any payment mark', () => {
    escrow(histories.pendingFresh).when({ type: 'cancel', by: 'buyer' }).then([{ type: 'EscrowCancelled', data: { reason: 'Cancelled by the creator' } }]);
    escrow(histories.pendingFresh).when({ type: 'cancel', by: 'seller' }).thenRefused('forbidden', 'creator');
    escrow(histories.pendingMarked).when({ type: 'cancel', by: 'buyer' }).thenRefused('transition_not_allowed', 'marked');
  });

  it('expires only after the deadline, by the system', () => {
    escrow(histories.pendingFresh, '2026-01-07T23:59:59.000Z').when({ type: 'expire', by: 'system' }).thenRefused('transition_not_allowed', 'deadline');
    escrow(histories.pendingFresh, '2026-01-08T00:00:01.000Z').when({ type: 'expire', by: 'system' }).then([{ type: 'EscrowExpired', data: {} }]);
    escrow(histories.pendingFresh, '2026-02-01T00:00:00.000Z').when({ type: 'expire', by: 'admin' }).thenRefused('forbidden');
  });

  it('freezes with a reason and unfreezes, admin only', () => {
    escrow(histories.funded).when({ type: 'freeze', by: 'admin', reason: 'Check' }).then([{ type: 'EscrowFrozen', data: { reason: 'Check' } }]);
    escrow(histories.funded).when({ type: 'freeze', by: 'admin', reason: '' }).thenRefused('invalid_input');
    escrow(histories.funded).when({ type: 'freeze', by: 'buyer', reason: 'x' }).thenRefused('forbidden');
    escrow(histories.frozen).when({ type: 'unfreeze', by: 'admin', reason: 'ok' }).then([{ type: 'EscrowUnfrozen', data: { reason: 'ok' } }]);
    escrow(histories.released).when({ type: 'freeze', by: 'admin', reason: 'x' }).thenRefused('transition_not_allowed');
  });
});
