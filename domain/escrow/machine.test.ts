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

describe('escrow machine: agreement, proposals and agreed settlements', () => {
  const created = (creator: 'buyer' | 'seller'): EscrowEvent => ({
    type: 'EscrowCreated',
    data: { ...sample.EscrowCreated.data, creator_side: creator, inspection_days: 3 },
  });
  const assigned = (via: 'buyer' | 'admin') =>
    at({ ...sample.PaymentAddressAssigned, data: { ...sample.PaymentAddressAssigned.data, assigned_via: via } });
  const refund: EscrowEvent = {
    type: 'ProposalMade',
    data: { ...sample.ProposalMade.data, kind: 'refund', side: 'seller', seller_percent: null, seller_sats: 0 },
  };
  const acceptedBy = (side: 'buyer' | 'seller', extra = {}): EscrowEvent => ({
    type: 'ProposalAccepted',
    data: { ...sample.ProposalAccepted.data, side, ...extra },
  });
  const resolved = (resolution: 'release' | 'refund' | 'split' | null, dispute_id: string | null = null) =>
    at({
      ...sample.DisputeResolved,
      data: {
        ...sample.DisputeResolved.data,
        dispute_id,
        resolution,
        seller_percent: resolution === 'split' ? 70 : null,
      },
    });
  const verified = [sample.EscrowCreated, sample.PaymentAddressAssigned, sample.PaymentMarked, sample.PaymentVerified];

  it("lets an admin assign an address on a seller's escrow before the buyer agreed, not the buyer take one", () => {
    const unagreed = fold([created('seller')]).snapshot;
    expect(unagreed.can(assigned('admin'))).toBe(true);
    expect(unagreed.can(assigned('buyer'))).toBe(false);
  });

  it('answers only the open proposal: the other side declines it, its maker withdraws it', () => {
    const open = fold([...histories.funded, sample.ProposalMade]).snapshot;
    const other = '77777777-7777-4777-8777-777777777777';
    expect(open.can(at(acceptedBy('seller')))).toBe(true);
    expect(open.can(at(acceptedBy('seller', { proposal_id: other })))).toBe(false);
    expect(open.can(at(sample.ProposalDeclined))).toBe(true);
    expect(open.can(at({ ...sample.ProposalDeclined, data: { ...sample.ProposalDeclined.data, side: 'buyer' } }))).toBe(
      false,
    );
    expect(open.can(at(sample.ProposalWithdrawn))).toBe(true);
    expect(
      open.can(at({ ...sample.ProposalWithdrawn, data: { ...sample.ProposalWithdrawn.data, proposal_id: other } })),
    ).toBe(false);
  });

  it('executes an agreed refund without a dispute, to the refund address alone, and leads to refunded', () => {
    const agreed = [...verified, buyerRefund, refund, acceptedBy('buyer')];
    const state = fold(agreed);
    expect(state.snapshot.can(resolved('refund'))).toBe(true);
    expect(state.snapshot.can(resolved('refund', '44444444-4444-4444-8444-444444444444'))).toBe(false);
    expect(fold([...agreed, resolved('refund')]).status).toBe('refunded');
  });

  it('executes an agreed split only with both addresses set', () => {
    const split = [...verified, buyerRefund, sample.ProposalMade, acceptedBy('seller')];
    expect(fold(split).snapshot.can(resolved('split'))).toBe(false);
    expect(fold([...split, sellerPayout]).snapshot.can(resolved('split'))).toBe(true);
  });

  it('holds a disputed escrow to its agreed split, yet lets the dispute be closed without moving money', () => {
    const state = fold([...histories.disputedFromFunded, sample.ProposalMade, acceptedBy('seller')]);
    const dispute = '44444444-4444-4444-8444-444444444444';
    expect(state.snapshot.can(resolved('release', dispute))).toBe(false);
    expect(state.snapshot.can(resolved('split', dispute))).toBe(true);
    expect(state.snapshot.can(resolved(null, dispute))).toBe(true);
  });

  it('moves the time an accepted extension names, and makes no settlement of it', () => {
    const extension: EscrowEvent = {
      type: 'ProposalMade',
      data: { ...sample.ProposalMade.data, kind: 'extend_deadline', seller_percent: null, days: 3 },
    };
    const deadline = fold([
      sample.EscrowCreated,
      extension,
      acceptedBy('seller', { payment_due_at: '2026-01-11T00:00:00.000Z' }),
    ]);
    expect(deadline.context).toMatchObject({
      payment_due_at: '2026-01-11T00:00:00.000Z',
      settlement_kind: null,
      settlement_proposal_id: null,
      open_proposal_id: null,
    });
    const inspection: EscrowEvent = {
      type: 'ProposalMade',
      data: { ...sample.ProposalMade.data, kind: 'extend_inspection', seller_percent: null, days: 2 },
    };
    const longer = fold([
      ...histories.funded,
      sample.ShipmentRecorded,
      sample.GoodsReceived,
      inspection,
      acceptedBy('seller', { inspection_ends_at: '2026-01-07T00:00:00.000Z' }),
    ]);
    expect(longer.context).toMatchObject({ inspection_ends_at: '2026-01-07T00:00:00.000Z', settlement_kind: null });
  });
});
