import { describe, expect, it } from 'vitest';
import { escrowAggregate } from '../aggregates.ts';
import type { EscrowEvent } from './events.ts';
import type { EscrowCommand } from './decide.ts';
import { given, NOW } from '../testing/given.ts';
import { foldEscrow } from './state.ts';
import {
  ADDRESS_ID,
  CREATOR_ID,
  DISPUTE_ID,
  ESCROW_ID,
  histories,
  sample,
  sellerPayout,
  TXID,
} from './test-fixtures.ts';

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
    escrow([])
      .when(create())
      .then([
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
            inspection_days: 3,
          },
        },
      ]);
  });

  it('puts the creator on the seller side when a seller creates it', () => {
    const [event] = escrow([])
      .when(
        create({
          by: 'seller',
          creator_side: 'seller',
          counterparty_email: 'b@example.com',
          creator_email: 's@example.com',
        }),
      )
      .events();
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
      .when({ type: 'requestPayment', by: 'buyer', address_id: ADDRESS_ID, address: 'bc1qx' })
      .then([
        { type: 'PaymentAddressAssigned', data: { address_id: ADDRESS_ID, address: 'bc1qx', assigned_via: 'buyer' } },
      ]);
    escrow(histories.pendingFresh)
      .when({ type: 'requestPayment', by: 'seller', address_id: ADDRESS_ID, address: 'bc1qx' })
      .thenRefused('forbidden');
    escrow(histories.pendingFresh)
      .when({ type: 'assignAddress', by: 'buyer', address_id: ADDRESS_ID, address: 'bc1qx' })
      .thenRefused('forbidden');
    escrow([...histories.pendingFresh, sample.PaymentAddressAssigned])
      .when({ type: 'assignAddress', by: 'admin', address_id: ADDRESS_ID, address: 'bc1qx' })
      .thenRefused('conflict', 'already has a payment address');
  });

  it('lets only the buyer mark it paid, and only once an address is assigned', () => {
    escrow(histories.pendingFresh)
      .when({ type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] })
      .thenRefused('transition_not_allowed', 'request one first');
    const withAddress = [...histories.pendingFresh, sample.PaymentAddressAssigned];
    escrow(withAddress)
      .when({ type: 'markPaid', by: 'seller', notes: 'sent', evidence: [] })
      .thenRefused('forbidden', 'Only the buyer');
    escrow(withAddress)
      .when({ type: 'markPaid', by: 'buyer', notes: ' sent ', evidence: [] })
      .then([{ type: 'PaymentMarked', data: { notes: 'sent', evidence: [] } }]);
  });

  it('lets an admin verify or reject a marked payment, not an unmarked one', () => {
    escrow(histories.pendingMarked)
      .when({ type: 'verifyPayment', by: 'admin', notes: 'seen', txid: TXID })
      .then([{ type: 'PaymentVerified', data: { notes: 'seen', txid: TXID } }]);
    escrow(histories.pendingMarked)
      .when({ type: 'rejectPayment', by: 'admin', notes: 'not found' })
      .then([{ type: 'PaymentRejected', data: { notes: 'not found' } }]);
    escrow(histories.pendingMarked)
      .when({ type: 'verifyPayment', by: 'buyer', notes: '', txid: null })
      .thenRefused('forbidden');
    escrow([...histories.pendingFresh, sample.PaymentAddressAssigned])
      .when({ type: 'verifyPayment', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed');
  });
});

describe('release and refund', () => {
  it('releases the principal to the seller and keeps the fee', () => {
    const [event] = escrow(histories.funded)
      .when({ type: 'release', by: 'admin', notes: 'delivered', txid: TXID })
      .events();
    expect(event).toEqual({
      type: 'EscrowReleased',
      data: {
        notes: 'delivered',
        txid: TXID,
        seller_sats: 2_000_000,
        fee_sats: 30_000,
        destinations: [{ to: 'seller', address: 'bc1qpayout', sats: 2_000_000 }],
      },
    });
  });

  it('refunds all of it to the buyer', () => {
    const [event] = escrow(histories.funded)
      .when({ type: 'refund', by: 'admin', notes: 'no delivery', txid: null })
      .events();
    expect(event).toEqual({
      type: 'EscrowRefunded',
      data: {
        notes: 'no delivery',
        txid: null,
        buyer_sats: 2_030_000,
        fee_sats: 0,
        destinations: [{ to: 'buyer', address: 'bc1qrefund', sats: 2_030_000 }],
      },
    });
  });

  it('needs the payout or refund address', () => {
    const bare = [sample.EscrowCreated, sample.PaymentAddressAssigned, sample.PaymentMarked, sample.PaymentVerified];
    escrow(bare)
      .when({ type: 'release', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'payout address');
    escrow(bare)
      .when({ type: 'refund', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'refund address');
  });

  it('names the status when the lifecycle refuses', () => {
    escrow(histories.pendingFresh)
      .when({ type: 'release', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'Cannot release an escrow that is pending_payment');
    escrow(histories.released)
      .when({ type: 'refund', by: 'admin', notes: '', txid: null })
      .thenRefused('transition_not_allowed', 'released');
  });

  it('lets only the buyer confirm receipt, once', () => {
    escrow(histories.funded)
      .when({ type: 'confirmReceipt', by: 'buyer' })
      .then([{ type: 'ReceiptConfirmed', data: {} }]);
    escrow(histories.funded).when({ type: 'confirmReceipt', by: 'seller' }).thenRefused('forbidden');
    escrow([...histories.funded, sample.ReceiptConfirmed])
      .when({ type: 'confirmReceipt', by: 'buyer' })
      .thenRefused('transition_not_allowed');
  });

  it('records the payout address on the caller side', () => {
    escrow(histories.pendingFresh)
      .when({ type: 'setPayoutAddress', by: 'buyer', address: 'bc1qr' })
      .then([
        { type: 'PayoutAddressSet', data: { side: 'buyer', address: 'bc1qr', replaces: null, held_until: null } },
      ]);
    escrow(histories.pendingFresh)
      .when({ type: 'setPayoutAddress', by: 'admin', address: 'bc1qr' })
      .thenRefused('forbidden');
  });
});

describe('payout address safety', () => {
  const replaced = {
    type: 'PayoutAddressSet',
    data: { side: 'seller', address: 'bc1qnew', replaces: 'bc1qpayout', held_until: '2026-01-02T00:00:00.000Z' },
  } as const;

  it('holds every replacement, funded or not, never the first address', () => {
    escrow(histories.funded)
      .when({ type: 'setPayoutAddress', by: 'seller', address: 'bc1qnew', hold_hours: 24 })
      .then([replaced]);
    escrow([sample.EscrowCreated, sample.PaymentAddressAssigned, sample.PaymentMarked, sample.PaymentVerified])
      .when({ type: 'setPayoutAddress', by: 'seller', address: 'bc1qfirst', hold_hours: 24 })
      .then([
        { type: 'PayoutAddressSet', data: { side: 'seller', address: 'bc1qfirst', replaces: null, held_until: null } },
      ]);
    escrow([sample.EscrowCreated, sellerPayout])
      .when({ type: 'setPayoutAddress', by: 'seller', address: 'bc1qnew', hold_hours: 24 })
      .then([
        {
          type: 'PayoutAddressSet',
          data: { side: 'seller', address: 'bc1qnew', replaces: 'bc1qpayout', held_until: '2026-01-02T00:00:00.000Z' },
        },
      ]);
    escrow(histories.funded)
      .when({ type: 'setPayoutAddress', by: 'seller', address: 'bc1qpayout', hold_hours: 24 })
      .then([]);
  });

  it('asks a party with 2FA for the code to replace an address in any status, never for the first one', () => {
    const missing = {
      type: 'setPayoutAddress',
      by: 'seller',
      address: 'bc1qnew',
      hold_hours: 24,
      second_factor: 'missing',
    } as const;
    escrow([sample.EscrowCreated, sellerPayout])
      .when(missing)
      .thenRefused('invalid_input', /2FA code required to replace your payout address/);
    escrow([sample.EscrowCreated, sample.PaymentAddressAssigned, sample.PaymentMarked, sellerPayout])
      .when(missing)
      .thenRefused('invalid_input', /2FA code required/);
    escrow(histories.funded)
      .when(missing)
      .thenRefused('invalid_input', /2FA code required/);
    escrow([sample.EscrowCreated])
      .when(missing)
      .then([
        { type: 'PayoutAddressSet', data: { side: 'seller', address: 'bc1qnew', replaces: null, held_until: null } },
      ]);
    escrow([sample.EscrowCreated, sellerPayout])
      .when({ ...missing, second_factor: 'passed' })
      .then([
        {
          type: 'PayoutAddressSet',
          data: { side: 'seller', address: 'bc1qnew', replaces: 'bc1qpayout', held_until: '2026-01-02T00:00:00.000Z' },
        },
      ]);
  });

  it('sends no money to a held address until the hold ends', () => {
    const release = { type: 'release', by: 'admin', notes: '', txid: null } as const;
    escrow([...histories.funded, replaced], '2026-01-01T23:59:59.000Z')
      .when(release)
      .thenRefused('transition_not_allowed', /money cannot go to it before 2 Jan 2026, 00:00 UTC/);
    const [event] = escrow([...histories.funded, replaced], '2026-01-02T00:00:00.000Z')
      .when(release)
      .events();
    expect(event).toMatchObject({
      type: 'EscrowReleased',
      data: { destinations: [{ to: 'seller', address: 'bc1qnew' }] },
    });
  });

  it('refuses money to an address other than the one the admin saw, naming both', () => {
    escrow(histories.funded)
      .when({ type: 'release', by: 'admin', notes: '', txid: null, expected_address: 'bc1qold' })
      .thenRefused(
        'conflict',
        "The seller's payout address changed: you saw bc1qold, it is now bc1qpayout. Reload the escrow and check it again",
      );
    escrow(histories.funded)
      .when({ type: 'refund', by: 'admin', notes: '', txid: null, expected_address: 'bc1qold' })
      .thenRefused('conflict', /bc1qrefund/);
  });

  it("resolves only the escrow's open dispute", () => {
    escrow(histories.disputedFromFunded)
      .when({
        type: 'resolveDispute',
        by: 'admin',
        outcome: 'x',
        resolution: null,
        seller_percent: null,
        txid: null,
        dispute_id: '00000000-0000-4000-8000-000000000999',
      })
      .thenRefused('conflict', /already resolved/);
  });

  it('refuses amounts under the minimum and at or under the dust limit', () => {
    const command = (amount_cents: number, rate_cents = 5_000_000) =>
      create({ amount_cents, pricing: { rate_cents, fee_bps: 150 }, min_amount_cents: 100 });
    escrow([]).when(command(99)).thenRefused('invalid_input', 'amount_usd must be at least 1.00');
    escrow([]).when(command(100, 20_000_000)).thenRefused('invalid_input', /546/);
    expect(escrow([]).when(command(100)).events()).toHaveLength(1);
  });

  it('binds a side to one account only', () => {
    const bind = (user_id: string): EscrowCommand => ({ type: 'bindParty', by: 'system', side: 'seller', user_id });
    const id = '00000000-0000-4000-8000-00000000bbbb';
    escrow(histories.released)
      .when(bind(id))
      .then([{ type: 'PartyBound', data: { side: 'seller', user_id: id } }]);
    escrow([...histories.released, { type: 'PartyBound', data: { side: 'seller', user_id: id } }])
      .when(bind(id))
      .then([]);
    escrow([...histories.released, { type: 'PartyBound', data: { side: 'seller', user_id: id } }])
      .when(bind('00000000-0000-4000-8000-00000000cccc'))
      .thenRefused('forbidden');
  });
});

describe('disputes', () => {
  const resolve = (
    resolution: 'release' | 'refund' | 'split' | null,
    seller_percent: number | null = null,
  ): EscrowCommand => ({
    type: 'resolveDispute',
    by: 'admin',
    outcome: 'Agreed',
    resolution,
    seller_percent,
    txid: null,
  });

  it('lets a party open one with a reason', () => {
    // The dispute's id is the decider's to draw.
    given(escrowAggregate, histories.funded, { newId: () => DISPUTE_ID })
      .when({ type: 'openDispute', by: 'seller', reason: ' Not paid ' })
      .then([
        { type: 'DisputeOpened', data: { dispute_id: DISPUTE_ID, reason: 'Not paid', opened_by_side: 'seller' } },
      ]);
    escrow(histories.funded)
      .when({ type: 'openDispute', by: 'buyer', reason: ' ' })
      .thenRefused('invalid_input', 'reason');
    escrow(histories.funded).when({ type: 'openDispute', by: 'admin', reason: 'x' }).thenRefused('forbidden');
  });

  it('splits the principal, keeps the fee, and conserves satoshis', () => {
    const [event] = escrow(histories.disputedFromFunded).when(resolve('split', 60)).events();
    expect(event).toMatchObject({
      type: 'DisputeResolved',
      data: { resolution: 'split', seller_percent: 60, seller_sats: 1_200_000, buyer_sats: 800_000, fee_sats: 30_000 },
    });
    const d = (event as Extract<EscrowEvent, { type: 'DisputeResolved' }>).data;
    expect(d.seller_sats + d.buyer_sats + d.fee_sats).toBe(2_030_000);
  });

  it('refuses a split without a valid percentage', () => {
    for (const pct of [null, 0, 100])
      escrow(histories.disputedFromFunded).when(resolve('split', pct)).thenRefused('invalid_input', '1 to 99');
  });

  it('moves no money when the dispute was opened before any payment', () => {
    escrow(histories.disputedFromPending)
      .when(resolve('release'))
      .thenRefused('transition_not_allowed', 'No payment was verified');
    const [event] = escrow(histories.disputedFromPending).when(resolve(null)).events();
    expect(event).toMatchObject({ data: { resolution: null, seller_sats: 0, buyer_sats: 0, fee_sats: 0 } });
  });
});

describe('cancel, expire, freeze', () => {
  it('lets the creator cancel before any payment mark', () => {
    escrow(histories.pendingFresh)
      .when({ type: 'cancel', by: 'buyer' })
      .then([{ type: 'EscrowCancelled', data: { reason: 'Cancelled by the creator' } }]);
    escrow(histories.pendingFresh).when({ type: 'cancel', by: 'seller' }).thenRefused('forbidden', 'creator');
    escrow(histories.pendingMarked)
      .when({ type: 'cancel', by: 'buyer' })
      .thenRefused('transition_not_allowed', 'marked');
  });

  it('lets an admin cancel an unpaid escrow with a reason, never a marked or funded one', () => {
    const cancel = { type: 'cancelByAdmin', by: 'admin', reason: ' Hoarding the pool ' } as const;
    escrow(histories.pendingFresh)
      .when(cancel)
      .then([{ type: 'EscrowCancelled', data: { reason: 'Hoarding the pool', by: 'admin' } }]);
    escrow(histories.pendingFresh)
      .when({ ...cancel, reason: ' ' })
      .thenRefused('invalid_input', 'reason is required');
    escrow(histories.pendingFresh)
      .when({ ...cancel, by: 'buyer' })
      .thenRefused('forbidden');
    escrow(histories.pendingMarked).when(cancel).thenRefused('transition_not_allowed', 'marked');
    escrow(histories.funded).when(cancel).thenRefused('transition_not_allowed', 'funded');
  });

  it('expires only after the deadline, by the system', () => {
    escrow(histories.pendingFresh, '2026-01-07T23:59:59.000Z')
      .when({ type: 'expire', by: 'system' })
      .thenRefused('transition_not_allowed', 'deadline');
    escrow(histories.pendingFresh, '2026-01-08T00:00:01.000Z')
      .when({ type: 'expire', by: 'system' })
      .then([{ type: 'EscrowExpired', data: {} }]);
    escrow(histories.pendingFresh, '2026-02-01T00:00:00.000Z')
      .when({ type: 'expire', by: 'admin' })
      .thenRefused('forbidden');
  });

  it('freezes with a reason and unfreezes, admin only', () => {
    escrow(histories.funded)
      .when({ type: 'freeze', by: 'admin', reason: 'Check' })
      .then([{ type: 'EscrowFrozen', data: { reason: 'Check' } }]);
    escrow(histories.funded).when({ type: 'freeze', by: 'admin', reason: '' }).thenRefused('invalid_input');
    escrow(histories.funded).when({ type: 'freeze', by: 'buyer', reason: 'x' }).thenRefused('forbidden');
    escrow(histories.frozen)
      .when({ type: 'unfreeze', by: 'admin', reason: 'ok' })
      .then([{ type: 'EscrowUnfrozen', data: { reason: 'ok' } }]);
    escrow(histories.released).when({ type: 'freeze', by: 'admin', reason: 'x' }).thenRefused('transition_not_allowed');
  });
});

describe('postMessage', () => {
  const MESSAGE_ID = '00000000-0000-4000-8000-000000000000';
  const file = {
    evidence_id: '66666666-6666-4666-8666-666666666666',
    filename: 'label.pdf',
    content_type: 'application/pdf',
    size_bytes: 1234,
    sha256: 'b'.repeat(64),
  };

  it('records a message by either party or an admin, trimmed, with its side', () => {
    for (const by of ['buyer', 'seller', 'admin'] as const) {
      escrow(histories.funded)
        .when({ type: 'postMessage', by, text: '  Where is it?  ' })
        .then([{ type: 'MessagePosted', data: { message_id: MESSAGE_ID, side: by, text: 'Where is it?' } }]);
    }
  });

  it("records an attachment's reference (its SHA-256), never its bytes", () => {
    escrow(histories.disputedFromFunded)
      .when({ type: 'postMessage', by: 'buyer', text: 'The label', file })
      .then([{ type: 'MessagePosted', data: { message_id: MESSAGE_ID, side: 'buyer', text: 'The label', file } }]);
  });

  it('is open in every status of a deal under way, frozen and disputed included', () => {
    for (const history of [
      'pendingFresh',
      'pendingMarked',
      'funded',
      'disputedFromFunded',
      'disputedFromPending',
      'frozen',
    ] as const) {
      expect(
        escrow(histories[history]).when({ type: 'postMessage', by: 'seller', text: 'Hello' }).events(),
      ).toHaveLength(1);
    }
  });

  it('is closed once the deal has ended, naming the status', () => {
    escrow(histories.released)
      .when({ type: 'postMessage', by: 'buyer', text: 'Thanks' })
      .thenRefused('transition_not_allowed', 'released');
    escrow(histories.refunded)
      .when({ type: 'postMessage', by: 'admin', text: 'Done' })
      .thenRefused('transition_not_allowed', 'refunded');
    escrow(histories.cancelled)
      .when({ type: 'postMessage', by: 'seller', text: 'Why?' })
      .thenRefused('transition_not_allowed', 'cancelled');
    escrow(histories.draft)
      .when({ type: 'postMessage', by: 'buyer', text: 'Hi' })
      .thenRefused('transition_not_allowed');
  });

  it('refuses empty text, text over 4000 characters, and the system as an author', () => {
    escrow(histories.funded)
      .when({ type: 'postMessage', by: 'buyer', text: '   ' })
      .thenRefused('invalid_input', 'text is required');
    escrow(histories.funded)
      .when({ type: 'postMessage', by: 'buyer', text: 'x'.repeat(4001) })
      .thenRefused('invalid_input', 'at most 4000');
    expect(
      escrow(histories.funded)
        .when({ type: 'postMessage', by: 'buyer', text: 'x'.repeat(4000) })
        .events(),
    ).toHaveLength(1);
    escrow(histories.funded).when({ type: 'postMessage', by: 'system', text: 'Hi' }).thenRefused('forbidden');
  });

  it('changes nothing else: the status and the next steps stay as they were', () => {
    const fold = (events: EscrowEvent[]) => foldEscrow(events.map((e) => ({ ...e, occurred_at: NOW })));
    const before = fold(histories.disputedFromFunded);
    const after = fold([...histories.disputedFromFunded, sample.MessagePosted]);
    expect(after.status).toBe('disputed');
    expect(after.context).toEqual(before.context);
  });
});
