import type { EscrowEvent } from './events.ts';

/** Well-formed events for tests: one of each type, with ids and figures that fit together. */
export const ESCROW_ID = '11111111-1111-4111-8111-111111111111';
export const CREATOR_ID = '22222222-2222-4222-8222-222222222222';
export const ADDRESS_ID = '33333333-3333-4333-8333-333333333333';
export const DISPUTE_ID = '44444444-4444-4444-8444-444444444444';
export const TXID = 'a'.repeat(64);
export const PROPOSAL_ID = '66666666-6666-4666-8666-666666666666';

export const sample = {
  EscrowCreated: {
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
  PaymentAddressAssigned: {
    type: 'PaymentAddressAssigned',
    data: {
      address_id: ADDRESS_ID,
      address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      assigned_via: 'buyer',
    },
  },
  PaymentMarked: { type: 'PaymentMarked', data: { notes: 'sent', evidence: [] } },
  PaymentRejected: { type: 'PaymentRejected', data: { notes: 'not found on chain' } },
  PaymentVerified: { type: 'PaymentVerified', data: { notes: 'seen', txid: TXID } },
  ReceiptConfirmed: { type: 'ReceiptConfirmed', data: {} },
  TermsAgreed: { type: 'TermsAgreed', data: { side: 'seller' } },
  TermsDeclined: { type: 'TermsDeclined', data: { side: 'seller', reason: 'price changed' } },
  ShipmentRecorded: {
    type: 'ShipmentRecorded',
    data: { method: 'shipping', carrier: 'DHL', tracking: 'JD0123', note: null },
  },
  GoodsReceived: { type: 'GoodsReceived', data: { inspection_ends_at: '2026-01-05T00:00:00.000Z' } },
  PayoutAddressSet: { type: 'PayoutAddressSet', data: { side: 'seller', address: 'bc1qpayout' } },
  EscrowReleased: {
    type: 'EscrowReleased',
    data: { notes: '', txid: TXID, seller_sats: 2_000_000, fee_sats: 30_000 },
  },
  EscrowRefunded: {
    type: 'EscrowRefunded',
    data: { notes: '', txid: TXID, buyer_sats: 2_030_000, fee_sats: 0 },
  },
  DisputeOpened: {
    type: 'DisputeOpened',
    data: { dispute_id: DISPUTE_ID, reason: 'not delivered', opened_by_side: 'buyer' },
  },
  DisputeResolved: {
    type: 'DisputeResolved',
    data: {
      dispute_id: DISPUTE_ID,
      outcome: 'talked it through',
      resolution: null,
      seller_percent: null,
      seller_sats: 0,
      buyer_sats: 0,
      fee_sats: 0,
      txid: null,
    },
  },
  EscrowCancelled: { type: 'EscrowCancelled', data: { reason: 'changed my mind' } },
  EscrowExpired: { type: 'EscrowExpired', data: {} },
  EscrowFrozen: { type: 'EscrowFrozen', data: { reason: 'investigation' } },
  EscrowUnfrozen: { type: 'EscrowUnfrozen', data: { reason: 'cleared' } },
  PartyBound: { type: 'PartyBound', data: { side: 'seller', user_id: '00000000-0000-4000-8000-00000000aaaa' } },
  MessagePosted: {
    type: 'MessagePosted',
    data: {
      message_id: '55555555-5555-4555-8555-555555555555',
      side: 'seller',
      text: 'Shipped today, tracking to follow',
    },
  },
  ProposalMade: {
    type: 'ProposalMade',
    data: {
      proposal_id: PROPOSAL_ID,
      kind: 'split',
      side: 'buyer',
      seller_percent: 70,
      days: null,
      note: 'Half of it arrived scratched',
      seller_sats: 1_400_000,
      buyer_sats: 600_000,
    },
  },
  ProposalAccepted: { type: 'ProposalAccepted', data: { proposal_id: PROPOSAL_ID, side: 'seller' } },
  ProposalDeclined: { type: 'ProposalDeclined', data: { proposal_id: PROPOSAL_ID, side: 'seller', reason: 'No' } },
  ProposalWithdrawn: { type: 'ProposalWithdrawn', data: { proposal_id: PROPOSAL_ID, side: 'buyer' } },
} satisfies { [K in EscrowEvent['type']]: Extract<EscrowEvent, { type: K }> };

/** The sample event of `type` with some of its data changed. */
export const sampleWith = <T extends EscrowEvent['type']>(
  type: T,
  changes: Partial<Extract<EscrowEvent, { type: T }>['data']>,
): EscrowEvent => ({ type, data: { ...sample[type].data, ...changes } }) as EscrowEvent;

export const sellerPayout: EscrowEvent = sample.PayoutAddressSet as EscrowEvent;
export const buyerRefund: EscrowEvent = {
  type: 'PayoutAddressSet',
  data: { side: 'buyer', address: 'bc1qrefund' },
};

/** Histories that lead to each situation. */
export const histories = {
  draft: [],
  pendingFresh: [sample.EscrowCreated],
  pendingMarked: [sample.EscrowCreated, sample.PaymentAddressAssigned, sample.PaymentMarked],
  funded: [
    sample.EscrowCreated,
    sample.PaymentAddressAssigned,
    sample.PaymentMarked,
    sample.PaymentVerified,
    sellerPayout,
    buyerRefund,
  ],
  disputedFromFunded: [
    sample.EscrowCreated,
    sample.PaymentAddressAssigned,
    sample.PaymentMarked,
    sample.PaymentVerified,
    sellerPayout,
    buyerRefund,
    sample.DisputeOpened,
  ],
  disputedFromPending: [sample.EscrowCreated, sample.DisputeOpened],
  frozen: [sample.EscrowCreated, sample.EscrowFrozen],
  released: [
    sample.EscrowCreated,
    sample.PaymentAddressAssigned,
    sample.PaymentMarked,
    sample.PaymentVerified,
    sellerPayout,
    sample.EscrowReleased,
  ],
  refunded: [
    sample.EscrowCreated,
    sample.PaymentAddressAssigned,
    sample.PaymentMarked,
    sample.PaymentVerified,
    buyerRefund,
    sample.EscrowRefunded,
  ],
  cancelled: [sample.EscrowCreated, sample.EscrowCancelled],
} satisfies Record<string, EscrowEvent[]>;

/** The id the test clock hands out (testing/given.ts): every proposal a test makes through a command gets it. */
export const CLOCK_PROPOSAL_ID = '00000000-0000-4000-8000-000000000000';

/** A ProposalMade of `kind` by `side`, with the fields a kind does not use null unless given. */
export const proposalMade = (
  kind: string,
  side: 'buyer' | 'seller',
  extra: Partial<Record<string, unknown>> = {},
): EscrowEvent =>
  ({
    type: 'ProposalMade',
    data: {
      proposal_id: CLOCK_PROPOSAL_ID,
      kind,
      side,
      seller_percent: null,
      days: null,
      note: null,
      seller_sats: null,
      buyer_sats: null,
      ...extra,
    },
  }) as EscrowEvent;

/** The other side's acceptance of the proposal made by `proposalMade`. */
export const proposalAccepted = (side: 'buyer' | 'seller', extra = {}): EscrowEvent => ({
  type: 'ProposalAccepted',
  data: { proposal_id: CLOCK_PROPOSAL_ID, side, ...extra },
});

/** A split of 70% to the seller of the funded sample escrow (2,030,000 sats less the 30,000 fee), by the buyer. */
export const split70 = proposalMade('split', 'buyer', {
  seller_percent: 70,
  seller_sats: 1_400_000,
  buyer_sats: 600_000,
});

/** An admin's resolution paying that 70% split out, each share to the address in force (`sellerPayout`, `buyerRefund`). */
export const splitResolved70 = sampleWith('DisputeResolved', {
  outcome: 'split it',
  resolution: 'split',
  seller_percent: 70,
  seller_sats: 1_400_000,
  buyer_sats: 600_000,
  fee_sats: 30_000,
  txid: TXID,
  destinations: [
    { to: 'seller', address: 'bc1qpayout', sats: 1_400_000 },
    { to: 'buyer', address: 'bc1qrefund', sats: 600_000 },
  ],
});
