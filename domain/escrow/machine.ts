import { assign, setup } from 'xstate';
import type { EscrowEvent } from './events.ts';

/** Bumped whenever a rule changes; recorded in each event's metadata so old streams replay against their rules. */
export const ESCROW_MACHINE_VERSION = 2;

/** Machine events are the stored events, plus the time they happened. */
export type EscrowMachineEvent = Exclude<EscrowEvent, { type: 'PartyBound' }> & { at: string };

export interface EscrowContext {
  escrow_id: string | null;
  created_by: string | null;
  creator_side: 'buyer' | 'seller' | null;
  amount_sats: number;
  fee_cents: number;
  total_cents: number;
  payment_due_at: string | null;
  address_id: string | null;
  address: string | null;
  payment_marked_at: string | null;
  buyer_confirmed_at: string | null;
  payout_address: string | null;
  refund_address: string | null;
  /** Until when money may not go to a replaced payout (seller) or refund (buyer) address. */
  payout_address_held_until: string | null;
  refund_address_held_until: string | null;
  dispute_id: string | null;
  status_before_dispute: 'pending_payment' | 'funded' | null;
  /**
   * Days of inspection after receipt. Null: the escrow was created before agreement, shipment and inspection
   * existed; it keeps the rules it was made under (no agreement asked, dispute any time while funded).
   */
  inspection_days: number | null;
  /** When the counterparty agreed to the terms (the creator agreed by creating), or declined them. */
  agreed_at: string | null;
  declined_at: string | null;
  shipped_at: string | null;
  received_at: string | null;
  inspection_ends_at: string | null;
}

const initialContext: EscrowContext = {
  escrow_id: null,
  created_by: null,
  creator_side: null,
  amount_sats: 0,
  fee_cents: 0,
  total_cents: 0,
  payment_due_at: null,
  address_id: null,
  address: null,
  payment_marked_at: null,
  buyer_confirmed_at: null,
  payout_address: null,
  refund_address: null,
  payout_address_held_until: null,
  refund_address_held_until: null,
  dispute_id: null,
  status_before_dispute: null,
  inspection_days: null,
  agreed_at: null,
  declined_at: null,
  shipped_at: null,
  received_at: null,
  inspection_ends_at: null,
};

type Of<T extends EscrowMachineEvent['type']> = Extract<EscrowMachineEvent, { type: T }>;

/** `at` is empty only when folding facts stored without a time: the rule was checked when they were decided. */
const notHeldAt = (heldUntil: string | null, at: string) =>
  heldUntil === null || !at || Date.parse(at) >= Date.parse(heldUntil);

/**
 * The escrow's rules over its context, each written once. The machine's guards are made of them; the decider reads
 * them only to say which one refused a command the machine did not allow.
 */
export const escrowRules = {
  hasNoAddress: (c: EscrowContext) => c.address_id === null,
  hasAddress: (c: EscrowContext) => c.address_id !== null,
  isMarked: (c: EscrowContext) => c.payment_marked_at !== null,
  isUnmarked: (c: EscrowContext) => c.payment_marked_at === null,
  notConfirmed: (c: EscrowContext) => c.buyer_confirmed_at === null,
  hasPayoutAddress: (c: EscrowContext) => c.payout_address !== null,
  hasRefundAddress: (c: EscrowContext) => c.refund_address !== null,
  /** Money may go to the seller's payout address at `at` (a replaced address is held for a while). */
  payoutFree: (c: EscrowContext, at: string) => notHeldAt(c.payout_address_held_until, at),
  refundFree: (c: EscrowContext, at: string) => notHeldAt(c.refund_address_held_until, at),
  pastDeadline: (c: EscrowContext, at: string) =>
    c.payment_due_at !== null && (!at || Date.parse(at) > Date.parse(c.payment_due_at)),
  /** Money can only move on a dispute opened after the payment was verified. */
  disputedWhileFunded: (c: EscrowContext) => c.status_before_dispute === 'funded',
  /** Created under the rules before agreement and inspection (see `inspection_days`). */
  legacy: (c: EscrowContext) => c.inspection_days === null,
  /** The counterparty has neither agreed nor declined yet. */
  awaitingAgreement: (c: EscrowContext) => c.inspection_days !== null && c.agreed_at === null && c.declined_at === null,
  buyerAgreed: (c: EscrowContext) => c.creator_side === 'buyer' || c.agreed_at !== null || c.inspection_days === null,
  sellerAgreed: (c: EscrowContext) => c.creator_side === 'seller' || c.agreed_at !== null || c.inspection_days === null,
  notDeclined: (c: EscrowContext) => c.declined_at === null,
  isShipped: (c: EscrowContext) => c.shipped_at !== null,
  notShipped: (c: EscrowContext) => c.shipped_at === null,
  notReceived: (c: EscrowContext) => c.received_at === null,
  inspectionOver: (c: EscrowContext, at: string) =>
    c.inspection_ends_at !== null && (!at || Date.parse(at) >= Date.parse(c.inspection_ends_at)),
} as const;

const r = escrowRules;
const resolutionIs =
  (resolution: 'release' | 'refund' | 'split' | null, before: 'pending_payment' | 'funded') =>
  ({ context, event }: { context: EscrowContext; event: EscrowMachineEvent }) =>
    (event as Of<'DisputeResolved'>).data.resolution === resolution &&
    context.status_before_dispute === before;

/**
 * The escrow lifecycle (contract section 3). Used purely: state is rebuilt by folding stored events through
 * `transition`, and a command's event is appended only when `snapshot.can(event)` holds.
 */
export const escrowMachine = setup({
  types: { context: {} as EscrowContext, events: {} as EscrowMachineEvent },
  guards: {
    // An admin may assign an address the buyer asked for while none was free; the buyer agrees by paying.
    canTakeAddress: ({ context, event }) =>
      r.hasNoAddress(context) &&
      r.notDeclined(context) &&
      (r.buyerAgreed(context) || (event as Of<'PaymentAddressAssigned'>).data.assigned_via === 'admin'),
    canMark: ({ context }) =>
      r.hasAddress(context) && r.isUnmarked(context) && r.buyerAgreed(context) && r.notDeclined(context),
    awaitingAgreement: ({ context }) => r.awaitingAgreement(context),
    declineCancels: ({ context }) => r.awaitingAgreement(context) && r.isUnmarked(context),
    canShip: ({ context }) =>
      r.sellerAgreed(context) && r.notDeclined(context) && r.notShipped(context) && r.notConfirmed(context),
    canReceive: ({ context }) => r.isShipped(context) && r.notReceived(context) && r.notConfirmed(context),
    canConfirm: ({ context, event }) =>
      r.notConfirmed(context) &&
      r.notDeclined(context) &&
      ((event as Of<'ReceiptConfirmed'>).data.automatic !== true || r.inspectionOver(context, event.at)),
    /** A dispute is for a deal not yet accepted: once receipt is confirmed, the money is the seller's. */
    canDisputeFunded: ({ context }) => r.notConfirmed(context) || r.legacy(context),
    isMarked: ({ context }) => r.isMarked(context),
    isUnmarked: ({ context }) => r.isUnmarked(context),
    notConfirmed: ({ context }) => r.notConfirmed(context),
    canRelease: ({ context, event }) =>
      r.notDeclined(context) && r.hasPayoutAddress(context) && r.payoutFree(context, event.at),
    canRefund: ({ context, event }) => r.hasRefundAddress(context) && r.refundFree(context, event.at),
    canExpire: ({ context, event }) => r.isUnmarked(context) && r.pastDeadline(context, event.at),
    backToPending: resolutionIs(null, 'pending_payment'),
    backToFunded: resolutionIs(null, 'funded'),
    resolvedRelease: ({ context, event }) =>
      resolutionIs('release', 'funded')({ context, event }) &&
      r.hasPayoutAddress(context) &&
      r.payoutFree(context, event.at),
    resolvedSplit: ({ context, event }) =>
      resolutionIs('split', 'funded')({ context, event }) &&
      r.hasPayoutAddress(context) &&
      r.hasRefundAddress(context) &&
      r.payoutFree(context, event.at) &&
      r.refundFree(context, event.at),
    resolvedRefund: ({ context, event }) =>
      resolutionIs('refund', 'funded')({ context, event }) &&
      r.hasRefundAddress(context) &&
      r.refundFree(context, event.at),
  },
  actions: {
    setPayoutAddress: assign(({ event }) => {
      const { side, address, held_until } = (event as Of<'PayoutAddressSet'>).data;
      return side === 'seller'
        ? { payout_address: address, payout_address_held_until: held_until ?? null }
        : { refund_address: address, refund_address_held_until: held_until ?? null };
    }),
    clearDispute: assign({ dispute_id: null, status_before_dispute: null }),
    /**
     * A message changes nothing of the deal. The transition still needs an action: `can` says no to one that has
     * neither a target nor an action.
     */
    noteMessage: () => undefined,
    agree: assign(({ event }) => ({ agreed_at: event.at })),
    decline: assign(({ event }) => ({ declined_at: event.at })),
  },
}).createMachine({
  id: 'escrow',
  initial: 'draft',
  context: initialContext,
  states: {
    draft: {
      on: {
        EscrowCreated: {
          target: 'active',
          actions: assign(({ event }) => {
            const d = event.data;
            return {
              escrow_id: d.escrow_id,
              created_by: d.created_by,
              creator_side: d.creator_side,
              amount_sats: d.amount_sats,
              fee_cents: d.fee_cents,
              total_cents: d.total_cents,
              payment_due_at: d.payment_due_at,
              inspection_days: d.inspection_days ?? null,
            };
          }),
        },
      },
    },
    active: {
      initial: 'pending_payment',
      // The parties and the admins may talk while the deal is open, whatever step it is at; not once it has ended.
      on: { EscrowFrozen: 'frozen', MessagePosted: { actions: 'noteMessage' } },
      states: {
        history: { type: 'history', history: 'shallow' },
        pending_payment: {
          on: {
            TermsAgreed: { guard: 'awaitingAgreement', actions: 'agree' },
            TermsDeclined: [
              { guard: 'declineCancels', target: '#escrow.cancelled', actions: 'decline' },
              { guard: 'awaitingAgreement', actions: 'decline' },
            ],
            PaymentAddressAssigned: {
              guard: 'canTakeAddress',
              actions: assign(({ event }) => ({
                address_id: event.data.address_id,
                address: event.data.address,
              })),
            },
            PaymentMarked: {
              guard: 'canMark',
              actions: assign(({ event }) => ({ payment_marked_at: event.at })),
            },
            PaymentRejected: { guard: 'isMarked', actions: assign({ payment_marked_at: null }) },
            PaymentVerified: { guard: 'isMarked', target: 'funded' },
            PayoutAddressSet: { actions: 'setPayoutAddress' },
            DisputeOpened: {
              target: 'disputed',
              actions: assign(({ event }) => ({
                dispute_id: event.data.dispute_id,
                status_before_dispute: 'pending_payment' as const,
              })),
            },
            EscrowCancelled: { guard: 'isUnmarked', target: '#escrow.cancelled' },
            EscrowExpired: { guard: 'canExpire', target: '#escrow.cancelled' },
          },
        },
        funded: {
          on: {
            TermsAgreed: { guard: 'awaitingAgreement', actions: 'agree' },
            TermsDeclined: { guard: 'awaitingAgreement', actions: 'decline' },
            ShipmentRecorded: { guard: 'canShip', actions: assign(({ event }) => ({ shipped_at: event.at })) },
            GoodsReceived: {
              guard: 'canReceive',
              actions: assign(({ event }) => ({
                received_at: event.at,
                inspection_ends_at: event.data.inspection_ends_at,
              })),
            },
            ReceiptConfirmed: {
              guard: 'canConfirm',
              actions: assign(({ event }) => ({ buyer_confirmed_at: event.at })),
            },
            PayoutAddressSet: { actions: 'setPayoutAddress' },
            EscrowReleased: { guard: 'canRelease', target: '#escrow.released' },
            EscrowRefunded: { guard: 'canRefund', target: '#escrow.refunded' },
            DisputeOpened: {
              guard: 'canDisputeFunded',
              target: 'disputed',
              actions: assign(({ event }) => ({
                dispute_id: event.data.dispute_id,
                status_before_dispute: 'funded' as const,
              })),
            },
          },
        },
        disputed: {
          on: {
            PayoutAddressSet: { actions: 'setPayoutAddress' },
            DisputeResolved: [
              { guard: 'backToPending', target: 'pending_payment', actions: 'clearDispute' },
              { guard: 'backToFunded', target: 'funded', actions: 'clearDispute' },
              { guard: 'resolvedRelease', target: '#escrow.released' },
              { guard: 'resolvedSplit', target: '#escrow.released' },
              { guard: 'resolvedRefund', target: '#escrow.refunded' },
            ],
          },
        },
      },
    },
    frozen: { on: { EscrowUnfrozen: 'active.history', MessagePosted: { actions: 'noteMessage' } } },
    released: { type: 'final' },
    refunded: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
