import { assign, setup } from 'xstate';
import { addressFreeAt } from './address-hold.ts';
import type { EscrowEvent, ProposalKind } from './events.ts';

/** Bumped whenever a rule changes; recorded in each event's metadata so old streams replay against their rules. */
export const ESCROW_MACHINE_VERSION = 3;

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
  /** The one open settlement proposal (contract 7.5): its id, kind, maker and, for a split, the seller's percent. */
  open_proposal_id: string | null;
  open_proposal_kind: ProposalKind | null;
  open_proposal_side: 'buyer' | 'seller' | null;
  open_proposal_seller_percent: number | null;
  open_proposal_days: number | null;
  /** A refund or split both parties agreed to: the admins execute it, no dispute needed. */
  settlement_proposal_id: string | null;
  settlement_kind: 'refund' | 'split' | null;
  settlement_seller_percent: number | null;
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
  open_proposal_id: null,
  open_proposal_kind: null,
  open_proposal_side: null,
  open_proposal_seller_percent: null,
  open_proposal_days: null,
  settlement_proposal_id: null,
  settlement_kind: null,
  settlement_seller_percent: null,
};

type Of<T extends EscrowMachineEvent['type']> = Extract<EscrowMachineEvent, { type: T }>;

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
  payoutFree: (c: EscrowContext, at: string) => addressFreeAt(c.payout_address_held_until, at),
  refundFree: (c: EscrowContext, at: string) => addressFreeAt(c.refund_address_held_until, at),
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
  noOpenProposal: (c: EscrowContext) => c.open_proposal_id === null,
  notSettled: (c: EscrowContext) => c.settlement_proposal_id === null,
  /** The inspection period started and the goods are not accepted yet. */
  inInspection: (c: EscrowContext) => c.received_at !== null && c.buyer_confirmed_at === null,
  /**
   * Whether a proposal of `kind` fits the escrow while `status` (contract 7.5): a cancel only unpaid; a refund or a
   * split only with money in escrow (marked or verified; in a dispute only one opened after verification); a
   * deadline extension only while payment is awaited; an inspection extension only while the period runs.
   */
  proposalFits: (kind: ProposalKind, status: 'pending_payment' | 'funded' | 'disputed', c: EscrowContext) => {
    switch (kind) {
      case 'cancel':
        return status === 'pending_payment' && c.payment_marked_at === null;
      case 'refund':
      case 'split':
        return (
          status === 'funded' ||
          (status === 'pending_payment' ? c.payment_marked_at !== null : c.status_before_dispute === 'funded')
        );
      case 'extend_deadline':
        return status === 'pending_payment';
      case 'extend_inspection':
        return status === 'funded' && c.received_at !== null && c.buyer_confirmed_at === null;
    }
  },
} as const;

/**
 * What the machine holds: the escrow's context under one key. xstate merges each assign into
 * `Object.assign({}, context, update)`, and an object given more than 16 keys that way turns into a slow dictionary
 * (a seventh of verify-export's time, measured); one key copies at once, and `change` copies the escrow's context with
 * a spread, which keeps its shape.
 */
export interface EscrowMachineContext {
  deal: EscrowContext;
}

const r = escrowRules;
type GuardArgs = { context: EscrowContext; event: EscrowMachineEvent };

/** The guards, each written over the escrow's context. */
function overDeal<K extends string>(guards: Record<K, (args: GuardArgs) => boolean>) {
  const wrapped = {} as Record<K, (args: { context: EscrowMachineContext; event: EscrowMachineEvent }) => boolean>;
  for (const name of Object.keys(guards) as K[]) {
    const guard = guards[name];
    wrapped[name] = ({ context, event }) => guard({ context: context.deal, event });
  }
  return wrapped;
}

/** An action that changes some of the escrow's context. */
const change = <E extends EscrowMachineEvent = EscrowMachineEvent>(
  update: (args: { context: EscrowContext; event: E }) => Partial<EscrowContext>,
) =>
  assign<EscrowMachineContext, E, undefined, EscrowMachineEvent, never>(({ context, event }) => ({
    deal: { ...context.deal, ...update({ context: context.deal, event }) },
  }));
/** A resolution that moves money follows the settlement both parties agreed to, when there is one. */
const followsSettlement = ({ context, event }: GuardArgs) => {
  const { resolution, seller_percent } = (event as Of<'DisputeResolved'>).data;
  if (context.settlement_kind === null) return true;
  return (
    resolution === context.settlement_kind &&
    (resolution !== 'split' || seller_percent === context.settlement_seller_percent)
  );
};
const resolutionIs =
  (resolution: 'release' | 'refund' | 'split' | null, before: 'pending_payment' | 'funded') =>
  ({ context, event }: GuardArgs) =>
    (event as Of<'DisputeResolved'>).data.resolution === resolution &&
    context.status_before_dispute === before &&
    (resolution === null || followsSettlement({ context, event }));

type OpenStatus = 'pending_payment' | 'funded' | 'disputed';
/** A party may propose when no proposal is open, no settlement is agreed, the terms stand and the kind fits now. */
const canPropose =
  (status: OpenStatus) =>
  ({ context, event }: GuardArgs) =>
    r.noOpenProposal(context) &&
    r.notSettled(context) &&
    r.notDeclined(context) &&
    r.proposalFits((event as Of<'ProposalMade'>).data.kind, status, context);
/** The other side accepts the open proposal, if its kind still fits (a cancel no longer does once paid). */
const canAccept =
  (status: OpenStatus) =>
  ({ context, event }: GuardArgs) => {
    const { proposal_id, side } = (event as Of<'ProposalAccepted'>).data;
    return (
      context.open_proposal_id === proposal_id &&
      context.open_proposal_side !== side &&
      context.open_proposal_kind !== null &&
      r.proposalFits(context.open_proposal_kind, status, context)
    );
  };
/** A settled escrow's money goes only as agreed: a refund agreed, no release; a split agreed, neither. */
const settlementExecuted =
  (kind: 'refund' | 'split') =>
  ({ context, event }: GuardArgs) => {
    const { data } = event as Of<'DisputeResolved'>;
    if (data.dispute_id !== null || context.settlement_kind !== kind || !followsSettlement({ context, event }))
      return false;
    const refundFree = r.hasRefundAddress(context) && r.refundFree(context, event.at);
    return kind === 'refund'
      ? refundFree
      : refundFree && r.hasPayoutAddress(context) && r.payoutFree(context, event.at);
  };
const noProposal = {
  open_proposal_id: null,
  open_proposal_kind: null,
  open_proposal_side: null,
  open_proposal_seller_percent: null,
  open_proposal_days: null,
} as const;

/**
 * The escrow lifecycle (contract section 3). Used purely: state is rebuilt by folding stored events through
 * `transition`, and a command's event is appended only when `snapshot.can(event)` holds.
 */
export const escrowMachine = setup({
  types: { context: {} as EscrowMachineContext, events: {} as EscrowMachineEvent },
  guards: overDeal({
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
      r.notDeclined(context) && r.notSettled(context) && r.hasPayoutAddress(context) && r.payoutFree(context, event.at),
    canRefund: ({ context, event }) =>
      context.settlement_kind !== 'split' && r.hasRefundAddress(context) && r.refundFree(context, event.at),
    canProposePending: canPropose('pending_payment'),
    canProposeFunded: canPropose('funded'),
    canProposeDisputed: canPropose('disputed'),
    canAcceptPending: canAccept('pending_payment'),
    canAcceptFunded: canAccept('funded'),
    canAcceptDisputed: canAccept('disputed'),
    /** The other side declines; only the maker withdraws. */
    canDeclineProposal: ({ context, event }) =>
      context.open_proposal_id === (event as Of<'ProposalDeclined'>).data.proposal_id &&
      context.open_proposal_side !== (event as Of<'ProposalDeclined'>).data.side,
    canWithdrawProposal: ({ context, event }) =>
      context.open_proposal_id === (event as Of<'ProposalWithdrawn'>).data.proposal_id &&
      context.open_proposal_side === (event as Of<'ProposalWithdrawn'>).data.side,
    settledRefund: settlementExecuted('refund'),
    settledSplit: settlementExecuted('split'),
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
  }),
  actions: {
    setPayoutAddress: change(({ event }) => {
      const { side, address, held_until } = (event as Of<'PayoutAddressSet'>).data;
      return side === 'seller'
        ? { payout_address: address, payout_address_held_until: held_until ?? null }
        : { refund_address: address, refund_address_held_until: held_until ?? null };
    }),
    clearDispute: change(() => ({ dispute_id: null, status_before_dispute: null })),
    /**
     * A message changes nothing of the deal. The transition still needs an action: `can` says no to one that has
     * neither a target nor an action.
     */
    noteMessage: () => undefined,
    agree: change(({ event }) => ({ agreed_at: event.at })),
    openProposal: change(({ event }) => {
      const { proposal_id, kind, side, seller_percent, days } = (event as Of<'ProposalMade'>).data;
      return {
        open_proposal_id: proposal_id,
        open_proposal_kind: kind,
        open_proposal_side: side,
        open_proposal_seller_percent: seller_percent,
        open_proposal_days: days,
      };
    }),
    closeProposal: change(() => noProposal),
    /** An accepted extension moves its time at once; an accepted refund or split becomes the admins' instruction. */
    acceptProposal: change(({ context, event }) => {
      const { data } = event as Of<'ProposalAccepted'>;
      const kind = context.open_proposal_kind;
      const settles = kind === 'refund' || kind === 'split';
      return {
        ...noProposal,
        ...(data.payment_due_at ? { payment_due_at: data.payment_due_at } : {}),
        ...(data.inspection_ends_at ? { inspection_ends_at: data.inspection_ends_at } : {}),
        ...(settles
          ? {
              settlement_proposal_id: data.proposal_id,
              settlement_kind: kind,
              settlement_seller_percent: kind === 'split' ? context.open_proposal_seller_percent : null,
            }
          : {}),
      };
    }),
    decline: change(({ event }) => ({ declined_at: event.at })),
  },
}).createMachine({
  id: 'escrow',
  initial: 'draft',
  context: { deal: initialContext },
  states: {
    draft: {
      on: {
        EscrowCreated: {
          target: 'active',
          actions: change<Of<'EscrowCreated'>>(({ event }) => {
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
      on: {
        EscrowFrozen: 'frozen',
        MessagePosted: { actions: 'noteMessage' },
        ProposalDeclined: { guard: 'canDeclineProposal', actions: 'closeProposal' },
        ProposalWithdrawn: { guard: 'canWithdrawProposal', actions: 'closeProposal' },
      },
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
              actions: change<Of<'PaymentAddressAssigned'>>(({ event }) => ({
                address_id: event.data.address_id,
                address: event.data.address,
              })),
            },
            PaymentMarked: {
              guard: 'canMark',
              actions: change(({ event }) => ({ payment_marked_at: event.at })),
            },
            PaymentRejected: { guard: 'isMarked', actions: change(() => ({ payment_marked_at: null })) },
            PaymentVerified: { guard: 'isMarked', target: 'funded' },
            PayoutAddressSet: { actions: 'setPayoutAddress' },
            DisputeOpened: {
              target: 'disputed',
              actions: change<Of<'DisputeOpened'>>(({ event }) => ({
                dispute_id: event.data.dispute_id,
                status_before_dispute: 'pending_payment' as const,
              })),
            },
            EscrowCancelled: { guard: 'isUnmarked', target: '#escrow.cancelled' },
            ProposalMade: { guard: 'canProposePending', actions: 'openProposal' },
            ProposalAccepted: { guard: 'canAcceptPending', actions: 'acceptProposal' },
            EscrowExpired: { guard: 'canExpire', target: '#escrow.cancelled' },
          },
        },
        funded: {
          on: {
            TermsAgreed: { guard: 'awaitingAgreement', actions: 'agree' },
            TermsDeclined: { guard: 'awaitingAgreement', actions: 'decline' },
            ShipmentRecorded: { guard: 'canShip', actions: change(({ event }) => ({ shipped_at: event.at })) },
            GoodsReceived: {
              guard: 'canReceive',
              actions: change<Of<'GoodsReceived'>>(({ event }) => ({
                received_at: event.at,
                inspection_ends_at: event.data.inspection_ends_at,
              })),
            },
            ReceiptConfirmed: {
              guard: 'canConfirm',
              actions: change(({ event }) => ({ buyer_confirmed_at: event.at })),
            },
            PayoutAddressSet: { actions: 'setPayoutAddress' },
            EscrowReleased: { guard: 'canRelease', target: '#escrow.released' },
            EscrowRefunded: { guard: 'canRefund', target: '#escrow.refunded' },
            DisputeResolved: [
              { guard: 'settledSplit', target: '#escrow.released' },
              { guard: 'settledRefund', target: '#escrow.refunded' },
            ],
            ProposalMade: { guard: 'canProposeFunded', actions: 'openProposal' },
            ProposalAccepted: { guard: 'canAcceptFunded', actions: 'acceptProposal' },
            DisputeOpened: {
              guard: 'canDisputeFunded',
              target: 'disputed',
              actions: change<Of<'DisputeOpened'>>(({ event }) => ({
                dispute_id: event.data.dispute_id,
                status_before_dispute: 'funded' as const,
              })),
            },
          },
        },
        disputed: {
          on: {
            PayoutAddressSet: { actions: 'setPayoutAddress' },
            ProposalMade: { guard: 'canProposeDisputed', actions: 'openProposal' },
            ProposalAccepted: { guard: 'canAcceptDisputed', actions: 'acceptProposal' },
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
