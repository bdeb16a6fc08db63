import { describe, expect, it } from 'vitest';
import type { EscrowEvent } from './events.ts';
import type { EscrowMachineEvent } from './machine.ts';
import { type EscrowStatus, foldEscrow } from './state.ts';
import { buyerRefund, histories, sample, sellerPayout } from './test-fixtures.ts';

/** PartyBound says who a side is, not where the deal stands: it never goes through the lifecycle. */
const allTypes = (Object.keys(sample) as EscrowEvent['type'][]).filter((t) => t !== 'PartyBound');
/** After the payment deadline of the sample escrow (2026-01-08), so expiry is one of the allowed events. */
const at = (e: EscrowEvent, time = '2026-01-09T00:00:00.000Z') => ({ ...e, at: time }) as EscrowMachineEvent;
const fold = (events: readonly EscrowEvent[]) =>
  foldEscrow(events.map((e) => ({ ...e, occurred_at: '2026-01-01T00:00:00.000Z' })));

/** Every situation, its status, and exactly the events the lifecycle allows there. */
const table: [keyof typeof histories, EscrowStatus, EscrowEvent['type'][]][] = [
  ['draft', 'draft', ['EscrowCreated']],
  [
    'pendingFresh',
    'pending_payment',
    [
      'PaymentAddressAssigned',
      'PayoutAddressSet',
      'DisputeOpened',
      'EscrowCancelled',
      'EscrowExpired',
      'EscrowFrozen',
      'MessagePosted',
    ],
  ],
  [
    'pendingMarked',
    'pending_payment',
    // The sample proposal is a split: money must be in escrow, marked at least.
    [
      'PaymentRejected',
      'PaymentVerified',
      'PayoutAddressSet',
      'DisputeOpened',
      'EscrowFrozen',
      'MessagePosted',
      'ProposalMade',
    ],
  ],
  [
    'funded',
    'funded',
    [
      // The sample escrow predates agreement: its seller counts as agreed, so a shipment may be recorded.
      'ShipmentRecorded',
      'ReceiptConfirmed',
      'PayoutAddressSet',
      'EscrowReleased',
      'EscrowRefunded',
      'DisputeOpened',
      'EscrowFrozen',
      'MessagePosted',
      'ProposalMade',
    ],
  ],
  [
    'disputedFromFunded',
    'disputed',
    ['PayoutAddressSet', 'DisputeResolved', 'EscrowFrozen', 'MessagePosted', 'ProposalMade'],
  ],
  ['disputedFromPending', 'disputed', ['PayoutAddressSet', 'DisputeResolved', 'EscrowFrozen', 'MessagePosted']],
  ['frozen', 'frozen', ['EscrowUnfrozen', 'MessagePosted']],
  ['released', 'released', []],
  ['refunded', 'refunded', []],
  ['cancelled', 'cancelled', []],
];

describe('escrow machine: every status x every event', () => {
  for (const [history, status, allowedTypes] of table) {
    const state = fold(histories[history]);
    it(`${history} is ${status}`, () => expect(state.status).toBe(status));
    for (const type of allTypes) {
      const expected = allowedTypes.includes(type);
      it(`${history}: ${type} is ${expected ? 'allowed' : 'refused'}`, () => {
        expect(state.snapshot.can(at(sample[type as keyof typeof sample] as EscrowEvent))).toBe(expected);
      });
    }
  }
});

describe('escrow machine: guards inside a status', () => {
  it('expires an unpaid escrow only after its payment deadline', () => {
    const fresh = fold(histories.pendingFresh);
    expect(fresh.snapshot.can(at(sample.EscrowExpired, '2026-01-08T00:00:00.000Z'))).toBe(false);
    expect(fresh.snapshot.can(at(sample.EscrowExpired, '2026-01-08T00:00:00.001Z'))).toBe(true);
  });

  it('refuses a second payment address and a payment mark without an address', () => {
    const withAddress = fold([sample.EscrowCreated, sample.PaymentAddressAssigned]);
    expect(withAddress.snapshot.can(at(sample.PaymentAddressAssigned))).toBe(false);
    expect(fold([sample.EscrowCreated]).snapshot.can(at(sample.PaymentMarked))).toBe(false);
  });

  it('allows marking again after a rejection, and clears the mark', () => {
    const rejected = fold([...histories.pendingMarked, sample.PaymentRejected]);
    expect(rejected.context.payment_marked_at).toBeNull();
    expect(rejected.snapshot.can(at(sample.PaymentMarked))).toBe(true);
  });

  it('refuses release without a payout address and refund without a refund address', () => {
    const bare = fold([
      sample.EscrowCreated,
      sample.PaymentAddressAssigned,
      sample.PaymentMarked,
      sample.PaymentVerified,
    ]);
    expect(bare.status).toBe('funded');
    expect(bare.snapshot.can(at(sample.EscrowReleased))).toBe(false);
    expect(bare.snapshot.can(at(sample.EscrowRefunded))).toBe(false);
  });

  it("needs each side's own address: a refund address alone allows no release, a payout address alone no refund", () => {
    const verified = [
      sample.EscrowCreated,
      sample.PaymentAddressAssigned,
      sample.PaymentMarked,
      sample.PaymentVerified,
    ];
    const refundOnly = fold([...verified, buyerRefund]);
    expect(refundOnly.status).toBe('funded');
    expect(refundOnly.snapshot.can(at(sample.EscrowReleased))).toBe(false);
    expect(refundOnly.snapshot.can(at(sample.EscrowRefunded))).toBe(true);
    const payoutOnly = fold([...verified, sellerPayout]);
    expect(payoutOnly.snapshot.can(at(sample.EscrowReleased))).toBe(true);
    expect(payoutOnly.snapshot.can(at(sample.EscrowRefunded))).toBe(false);
  });

  it('resolves a dispute only towards the sides whose addresses are set: a split needs both', () => {
    const resolution = (r: 'release' | 'refund' | 'split') =>
      at({
        ...sample.DisputeResolved,
        data: { ...sample.DisputeResolved.data, resolution: r, seller_percent: r === 'split' ? 50 : null },
      });
    const verified = [
      sample.EscrowCreated,
      sample.PaymentAddressAssigned,
      sample.PaymentMarked,
      sample.PaymentVerified,
    ];
    const refundOnly = fold([...verified, buyerRefund, sample.DisputeOpened]).snapshot;
    const payoutOnly = fold([...verified, sellerPayout, sample.DisputeOpened]).snapshot;
    expect(['release', 'refund', 'split'].map((r) => refundOnly.can(resolution(r as 'release')))).toEqual([
      false,
      true,
      false,
    ]);
    expect(['release', 'refund', 'split'].map((r) => payoutOnly.can(resolution(r as 'release')))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('confirms receipt once', () => {
    const confirmed = fold([...histories.funded, sample.ReceiptConfirmed]);
    expect(confirmed.snapshot.can(at(sample.ReceiptConfirmed))).toBe(false);
  });

  it('resolves a dispute with money only when it was opened while funded', () => {
    const resolution = (r: 'release' | 'refund' | 'split') =>
      at({
        ...sample.DisputeResolved,
        data: { ...sample.DisputeResolved.data, resolution: r, seller_percent: r === 'split' ? 50 : null },
      });
    const fromFunded = fold(histories.disputedFromFunded);
    const fromPending = fold(histories.disputedFromPending);
    for (const r of ['release', 'refund', 'split'] as const) {
      expect(fromFunded.snapshot.can(resolution(r))).toBe(true);
      expect(fromPending.snapshot.can(resolution(r))).toBe(false);
    }
  });
});

describe('escrow machine: where events lead', () => {
  const resolved = (resolution: 'release' | 'refund' | 'split' | null) => ({
    ...sample.DisputeResolved,
    data: { ...sample.DisputeResolved.data, resolution, seller_percent: resolution === 'split' ? 40 : null },
  });

  it.each([
    [histories.disputedFromPending, null, 'pending_payment'],
    [histories.disputedFromFunded, null, 'funded'],
    [histories.disputedFromFunded, 'release', 'released'],
    [histories.disputedFromFunded, 'split', 'released'],
    [histories.disputedFromFunded, 'refund', 'refunded'],
  ] as const)('a dispute resolved with %#: %s leads to %s', (history, resolution, status) => {
    expect(fold([...history, resolved(resolution)]).status).toBe(status);
  });

  it.each([
    ['pendingFresh', 'pending_payment'],
    ['funded', 'funded'],
    ['disputedFromFunded', 'disputed'],
  ] as const)('unfreezing returns %s to %s', (history, status) => {
    const frozen = fold([...histories[history], sample.EscrowFrozen]);
    expect(frozen.status).toBe('frozen');
    const back = fold([...histories[history], sample.EscrowFrozen, sample.EscrowUnfrozen]);
    expect(back.status).toBe(status);
    // Guards still see the context from before the freeze.
    expect(back.context).toEqual(fold(histories[history]).context);
  });

  it('refuses to fold a stored event the rules do not allow (a corrupt stream)', () => {
    expect(() => fold([sample.EscrowCreated, sample.EscrowReleased])).toThrow(/not allowed while pending_payment/);
  });
});
