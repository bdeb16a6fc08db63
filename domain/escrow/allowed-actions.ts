import { type EscrowActor, type EscrowCommandType, mayGive } from './actors.ts';
import { type EscrowEvent, PROPOSAL_KINDS } from './events.ts';
import type { EscrowMachineEvent } from './machine.ts';
import { nextClockChange } from './clock.ts';
import { buyerAgreesFirst } from './decide.ts';
import { type EscrowState, evolveEscrow } from './state.ts';

/** The actions of contract section 7.7, in the order a page would offer them. */
export const ESCROW_ACTIONS = [
  'agree',
  'decline',
  'request_payment',
  'mark_paid',
  'ship',
  'receive',
  'confirm_receipt',
  'set_payout_address',
  'set_refund_address',
  'open_dispute',
  'cancel',
  'propose',
  'accept_proposal',
  'decline_proposal',
  'withdraw_proposal',
  'post_message',
  'assign_address',
  'verify_payment',
  'release',
  'refund',
  'resolve',
  'freeze',
  'unfreeze',
] as const;
export type EscrowAction = (typeof ESCROW_ACTIONS)[number];

const sideOf = (actor: EscrowActor) => (actor === 'seller' ? 'seller' : 'buyer');

/** Placeholders for the data of an event the machine is asked about: its guards read none of these. */
const SOME_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Each action as the command that takes it and the event the machine would be asked to allow. An action missing
 * here is not offered (its command does not exist yet on this escrow's rules).
 */
type Asked = { command: EscrowCommandType; event: EscrowEvent };
/** Most actions are one event; `propose` is offered when any kind of proposal would be allowed. */
type Probe = (actor: EscrowActor, state: EscrowState) => Asked | Asked[];
const probes: Partial<Record<EscrowAction, Probe>> = {
  agree: (actor) => ({ command: 'agree', event: { type: 'TermsAgreed', data: { side: sideOf(actor) } } }),
  decline: (actor) => ({
    command: 'decline',
    event: { type: 'TermsDeclined', data: { side: sideOf(actor), reason: '-' } },
  }),
  ship: () => ({
    command: 'ship',
    event: { type: 'ShipmentRecorded', data: { method: 'digital', carrier: null, tracking: null, note: null } },
  }),
  receive: () => ({
    command: 'receive',
    event: { type: 'GoodsReceived', data: { inspection_ends_at: '2000-01-01T00:00:00.000Z' } },
  }),
  request_payment: () => ({
    command: 'requestPayment',
    event: { type: 'PaymentAddressAssigned', data: { address_id: SOME_ID, address: '', assigned_via: 'buyer' } },
  }),
  assign_address: () => ({
    command: 'assignAddress',
    event: { type: 'PaymentAddressAssigned', data: { address_id: SOME_ID, address: '', assigned_via: 'admin' } },
  }),
  mark_paid: () => ({ command: 'markPaid', event: { type: 'PaymentMarked', data: { notes: '', evidence: [] } } }),
  verify_payment: () => ({
    command: 'verifyPayment',
    event: { type: 'PaymentVerified', data: { notes: '', txid: null } },
  }),
  confirm_receipt: () => ({ command: 'confirmReceipt', event: { type: 'ReceiptConfirmed', data: {} } }),
  set_payout_address: () => ({
    command: 'setPayoutAddress',
    event: { type: 'PayoutAddressSet', data: { side: 'seller', address: '' } },
  }),
  set_refund_address: () => ({
    command: 'setPayoutAddress',
    event: { type: 'PayoutAddressSet', data: { side: 'buyer', address: '' } },
  }),
  open_dispute: (actor) => ({
    command: 'openDispute',
    event: {
      type: 'DisputeOpened',
      data: { dispute_id: SOME_ID, reason: '-', opened_by_side: actor === 'seller' ? 'seller' : 'buyer' },
    },
  }),
  cancel: () => ({ command: 'cancel', event: { type: 'EscrowCancelled', data: { reason: '' } } }),
  release: () => ({
    command: 'release',
    event: { type: 'EscrowReleased', data: { notes: '', txid: null, seller_sats: 0, fee_sats: 0 } },
  }),
  refund: () => ({
    command: 'refund',
    event: { type: 'EscrowRefunded', data: { notes: '', txid: null, buyer_sats: 0, fee_sats: 0 } },
  }),
  // A dispute may be resolved without moving money; an agreed settlement is executed as agreed, dispute or not.
  resolve: (_, { context }) => ({
    command: 'resolveDispute',
    event: {
      type: 'DisputeResolved',
      data: {
        dispute_id: context.dispute_id ?? (context.settlement_kind ? null : SOME_ID),
        outcome: '-',
        resolution: context.settlement_kind,
        seller_percent: context.settlement_seller_percent,
        seller_sats: 0,
        buyer_sats: 0,
        fee_sats: 0,
        txid: null,
      },
    },
  }),
  propose: (actor) =>
    PROPOSAL_KINDS.map((kind) => ({
      command: 'propose' as const,
      event: {
        type: 'ProposalMade' as const,
        data: {
          proposal_id: SOME_ID,
          kind,
          side: sideOf(actor),
          seller_percent: null,
          days: null,
          note: null,
          seller_sats: null,
          buyer_sats: null,
        },
      },
    })),
  accept_proposal: (actor, { context }) => ({
    command: 'acceptProposal',
    event: {
      type: 'ProposalAccepted',
      data: { proposal_id: context.open_proposal_id ?? SOME_ID, side: sideOf(actor) },
    },
  }),
  decline_proposal: (actor, { context }) => ({
    command: 'declineProposal',
    event: {
      type: 'ProposalDeclined',
      data: { proposal_id: context.open_proposal_id ?? SOME_ID, side: sideOf(actor), reason: null },
    },
  }),
  withdraw_proposal: (actor, { context }) => ({
    command: 'withdrawProposal',
    event: {
      type: 'ProposalWithdrawn',
      data: { proposal_id: context.open_proposal_id ?? SOME_ID, side: sideOf(actor) },
    },
  }),
  post_message: (actor) => ({
    command: 'postMessage',
    event: {
      type: 'MessagePosted',
      data: { message_id: SOME_ID, side: actor === 'system' ? 'admin' : actor, text: '-' },
    },
  }),
  freeze: () => ({ command: 'freeze', event: { type: 'EscrowFrozen', data: { reason: '-' } } }),
  unfreeze: () => ({ command: 'unfreeze', event: { type: 'EscrowUnfrozen', data: { reason: '' } } }),
};

/** Actions of one actor only, where the command serves several: a party sets only their own address. */
const onlyFor: Partial<Record<EscrowAction, EscrowActor>> = {
  set_payout_address: 'seller',
  set_refund_address: 'buyer',
};

/**
 * Ready to release (contract 7.4): receipt confirmed (by the buyer or the system) and the machine would let an admin
 * release now (the seller's payout address set and not held, the terms not declined).
 */
export function readyToRelease(state: EscrowState, now: string): boolean {
  const can = (asked: Asked | Asked[]) =>
    state.snapshot.can({ ...(asked as Asked).event, at: now } as EscrowMachineEvent);
  if (state.context.settlement_kind !== null) return settlementReady(state, now);
  if (state.context.buyer_confirmed_at === null) return false;
  return can(probes.release!('admin', state));
}

/**
 * A refund or split both parties agreed to (contract 7.5) that an admin may execute now: its money in escrow
 * (verified), the addresses it goes to set and not held. It stands in the same queue as an escrow ready to release.
 */
export function settlementReady(state: EscrowState, now: string): boolean {
  const { settlement_kind: kind } = state.context;
  if (kind === null) return false;
  const asks = [probes.resolve!('admin', state), ...(kind === 'refund' ? [probes.refund!('admin', state)] : [])];
  return asks.some((asked) => state.snapshot.can({ ...(asked as Asked).event, at: now } as EscrowMachineEvent));
}

/** Declined after the payment was marked or verified, and not ended yet: the admins owe the buyer a refund. */
export function refundDue(state: EscrowState): boolean {
  return state.context.declined_at !== null && state.snapshot.status === 'active';
}

/**
 * What `actor` may do on this escrow now (contract section 7.7), answered by the same rules that decide the
 * commands: who may give each command, and whether the escrow's machine allows its event at `now`.
 */
export function allowedActions(state: EscrowState, actor: EscrowActor, now: string): EscrowAction[] {
  if (state.status === 'draft' || actor === 'system') return [];
  return ESCROW_ACTIONS.filter((action) => {
    const probe = probes[action];
    if (!probe) return false;
    const only = onlyFor[action];
    if (only !== undefined && only !== actor) return false;
    const asks = [probe(actor, state)].flat();
    return asks.some(({ command, event }) => {
      if (!mayGive(command, actor, state.context.creator_side)) return false;
      // Paying a seller's escrow agrees to its terms first (decide.ts): ask the machine after that agreement.
      const paying = (command === 'requestPayment' || command === 'markPaid') && buyerAgreesFirst(state);
      const asked = paying
        ? evolveEscrow(state, { type: 'TermsAgreed', data: { side: 'buyer' }, occurred_at: now })
        : state;
      return asked.snapshot.can({ ...event, at: now } as EscrowMachineEvent);
    });
  });
}

/**
 * The first time, at or after `now`, at which what this escrow allows may change with no new event (one of the
 * times its rules compare with the clock), or null when none is ahead. An answer listing allowed actions stays true
 * until then.
 */
export const actionsChangeAt = (state: EscrowState, now: string): number | null =>
  nextClockChange(state.context, Date.parse(now));
