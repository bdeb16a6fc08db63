import { DUST_LIMIT_SATS, formatCents, payout, quote } from '../money.ts';
import type { DecideContext } from '../shared/context.ts';
import { displayUtc } from '../shared/display-time.ts';
import { DomainError, forbidden, invalidInput, transitionNotAllowed } from '../shared/errors.ts';
import {
  type Destination,
  type EscrowEvent,
  type EvidenceRef,
  type PaymentProof,
  PROPOSAL_KINDS,
  type Shipment,
} from './events.ts';
import { type EscrowActor, mayGive } from './actors.ts';
import { type EscrowMachineEvent, escrowRules as rules } from './machine.ts';
import { MAX_MESSAGE_CHARS } from './message-rules.ts';
import { type EscrowState, evolveEscrow } from './state.ts';

export type { EscrowActor } from './actors.ts';

type Txid = string | null;
export type EscrowCommand = { by: EscrowActor } & (
  | {
      type: 'create';
      escrow_id: string;
      created_by: string;
      creator_side: 'buyer' | 'seller';
      creator_email: string;
      counterparty_email: string;
      product_service: string;
      description: string;
      amount_cents: number;
      deadline_days: number;
      pricing: { rate_cents: number; fee_bps: number };
      /** The smallest amount accepted (MIN_ESCROW_USD in cents); absent: any amount above 0. */
      min_amount_cents?: number;
      /** A verified account already holding the counterparty's e-mail: that side is bound to it at once. */
      counterparty_id?: string | null;
      /** Days of inspection after receipt, 0 to 30; absent: INSPECTION_DAYS_DEFAULT. */
      inspection_days?: number | undefined;
    }
  | { type: 'agree' }
  | { type: 'decline'; reason: string }
  | {
      type: 'ship';
      method: string;
      carrier?: string | null | undefined;
      tracking?: string | null | undefined;
      note?: string | null | undefined;
    }
  | { type: 'receive' }
  | { type: 'acceptAfterInspection' }
  | { type: 'requestPayment' | 'assignAddress'; address_id: string; address: string }
  | { type: 'markPaid'; notes: string; evidence: EvidenceRef[] }
  | { type: 'rejectPayment'; notes: string }
  | { type: 'verifyPayment'; notes: string; txid: Txid; proof?: PaymentProof; accept_partial?: boolean }
  | { type: 'confirmReceipt' }
  | {
      type: 'setPayoutAddress';
      address: string;
      /** A BIP-322 signature the application checked: the address is then recorded as proven. */
      signature?: string;
      /** How long a replaced address is held (PAYOUT_ADDRESS_HOLD_HOURS); absent: 0. */
      hold_hours?: number;
      /**
       * The party's second factor with this request: `passed` (a right code), `missing` (2FA is on and no code
       * came) or `not_enabled` (the party has no 2FA; also when absent).
       */
      second_factor?: 'passed' | 'missing' | 'not_enabled';
    }
  | { type: 'release'; notes: string; txid: Txid; expected_address?: string | null | undefined }
  | { type: 'refund'; notes: string; txid: Txid; expected_address?: string | null | undefined }
  | { type: 'openDispute'; reason: string }
  | {
      type: 'resolveDispute';
      outcome: string;
      resolution: 'release' | 'refund' | 'split' | null;
      seller_percent: number | null;
      txid: Txid;
      /** The dispute the admin is resolving: it must be the escrow's open one. */
      dispute_id?: string | undefined;
      /** The seller's payout address (release, split) or the buyer's refund address (refund) the admin saw. */
      expected_address?: string | null | undefined;
      /** For a split: the buyer's refund address the admin saw. */
      expected_refund_address?: string | null | undefined;
    }
  | { type: 'cancel' }
  /** An admin ends an unpaid escrow (a hoarded pool address, a suspended account), with a reason for both parties. */
  | { type: 'cancelByAdmin'; reason: string }
  | { type: 'bindParty'; side: 'buyer' | 'seller'; user_id: string }
  | { type: 'expire' }
  | { type: 'freeze'; reason: string }
  | { type: 'unfreeze'; reason: string }
  /** A message in the escrow's conversation, with the attachment the application checked and will store. */
  | { type: 'postMessage'; text: string; file?: EvidenceRef | undefined }
  /** Settlement by agreement (contract 7.5): `seller_percent` for a split, `days` for an extension. */
  | {
      type: 'propose';
      kind: string;
      seller_percent?: number | null | undefined;
      days?: number | null | undefined;
      note?: string | null | undefined;
    }
  | { type: 'acceptProposal'; proposal_id: string }
  | { type: 'withdrawProposal'; proposal_id: string }
  | { type: 'declineProposal'; proposal_id: string; reason?: string | null | undefined }
);

const verbs: Record<EscrowCommand['type'], string> = {
  create: 'create',
  requestPayment: 'request a payment address for',
  assignAddress: 'assign an address to',
  markPaid: 'mark as paid',
  rejectPayment: 'reject the payment of',
  verifyPayment: 'verify the payment of',
  confirmReceipt: 'confirm receipt of',
  setPayoutAddress: 'set a payout address on',
  release: 'release',
  refund: 'refund',
  openDispute: 'open a dispute on',
  resolveDispute: 'resolve a dispute on',
  cancel: 'cancel',
  agree: 'agree to the terms of',
  decline: 'decline',
  ship: 'record a shipment on',
  receive: 'mark as received',
  acceptAfterInspection: 'accept at the end of its inspection period',
  cancelByAdmin: 'cancel',
  expire: 'expire',
  freeze: 'freeze',
  unfreeze: 'unfreeze',
  bindParty: 'bind a party to',
  postMessage: 'post a message on',
  propose: 'propose a settlement on',
  acceptProposal: 'accept a proposal on',
  declineProposal: 'decline a proposal on',
  withdrawProposal: 'withdraw a proposal on',
};

function only(command: EscrowCommand, state: EscrowState) {
  if (mayGive(command.type, command.by, state.context.creator_side)) return;
  if (command.type === 'cancel') throw forbidden('Only the creator can cancel this escrow');
  if (command.type === 'agree' || command.type === 'decline') {
    throw forbidden(`Only the counterparty can ${verbs[command.type]} this escrow; its creator agreed by creating it`);
  }
  const actors: EscrowActor[] = ['buyer', 'seller', 'admin', 'system'];
  const allowedActors = actors.filter((a) => mayGive(command.type, a, null));
  const who = allowedActors.map((a) => `the ${a}`).join(' or ');
  throw forbidden(`Only ${who} can ${verbs[command.type]} this escrow`);
}

/** A refusal to give when the machine refused and this holds: the first that holds names the rule that refused. */
type Refusal = [holds: boolean, error: DomainError];

/**
 * The machine is the last word: the event is emitted only if the lifecycle allows it now. When it does not, the
 * refusal text is the first of `refusals` whose rule holds, else one naming the status.
 */
function allowed<E extends EscrowEvent>(
  state: EscrowState,
  command: EscrowCommand,
  event: E,
  ctx: DecideContext,
  refusals: Refusal[] = [],
): E[] {
  if (!state.snapshot.can({ ...event, at: ctx.now } as EscrowMachineEvent)) {
    const named = refusals.find(([holds]) => holds);
    if (named) throw named[1];
    const status = state.status === 'draft' ? 'not created yet' : state.status;
    throw transitionNotAllowed(`Cannot ${verbs[command.type]} an escrow that is ${status}`);
  }
  return [event];
}

type Side = 'buyer' | 'seller';

const notAgreed = () => transitionNotAllowed('The buyer must agree to the terms before paying');

const trimmed = (value: string, field: string, max = 5000) => {
  const text = value.trim();
  if (!text) throw invalidInput(`${field} is required`);
  if (text.length > max) throw invalidInput(`${field} must be at most ${max} characters`);
  return text;
};

/** Days of inspection when the creator gives none (contract 7.3). */
export const INSPECTION_DAYS_DEFAULT = 3;
const DAY_MS = 86_400_000;

/** A seller's escrow whose buyer pays (asks for the address or marks it paid) before agreeing: paying agrees. */
export const buyerAgreesFirst = (state: EscrowState) =>
  state.status === 'pending_payment' &&
  rules.awaitingAgreement(state.context) &&
  state.context.creator_side === 'seller';

/** The buyer's agreement recorded first, then the command decided on the state it leaves: "Agree and pay". */
function agreeingFirst(command: EscrowCommand, state: EscrowState, ctx: DecideContext): EscrowEvent[] {
  const agreed = { type: 'TermsAgreed', data: { side: 'buyer' } } as const;
  allowed(state, { type: 'agree', by: 'buyer' } as EscrowCommand, agreed, ctx);
  return [agreed, ...decideEscrow(command, evolveEscrow(state, { ...agreed, occurred_at: ctx.now }), ctx)];
}

/** Several events, each allowed by the machine in the state the ones before it leave. */
function allowedInTurn(state: EscrowState, command: EscrowCommand, events: EscrowEvent[], ctx: DecideContext) {
  let now = state;
  for (const event of events) {
    allowed(now, command, event, ctx);
    now = evolveEscrow(now, { ...event, occurred_at: ctx.now });
  }
  return events;
}

const optionalText = (value: string | null | undefined, field: string, max: number) => {
  const text = value?.trim() ?? '';
  if (text.length > max) throw invalidInput(`${field} must be at most ${max} characters`);
  return text || null;
};

const SHIPMENT_METHODS = ['shipping', 'digital', 'service'] as const;

/** The seller's shipment, checked as contract 7.2 says: a carrier (1-60) for shipping, tracking up to 100. */
function shipmentOf(command: Extract<EscrowCommand, { type: 'ship' }>): Shipment {
  const method = SHIPMENT_METHODS.find((m) => m === command.method);
  if (!method) throw invalidInput('method must be one of shipping, digital, service');
  const carrier = optionalText(command.carrier, 'carrier', 60);
  if (method === 'shipping' && !carrier) throw invalidInput('carrier is required when the method is shipping');
  return {
    method,
    carrier,
    tracking: optionalText(command.tracking, 'tracking', 100),
    note: optionalText(command.note, 'note', 1000),
  };
}

function create(command: Extract<EscrowCommand, { type: 'create' }>, state: EscrowState, ctx: DecideContext) {
  if (state.status !== 'draft') throw new DomainError('conflict', 'This escrow already exists');
  const creator = command.creator_email.trim().toLowerCase();
  const counterparty = command.counterparty_email.trim().toLowerCase();
  if (creator === counterparty) throw invalidInput('The counterparty e-mail must differ from your own');
  if (!Number.isInteger(command.deadline_days) || command.deadline_days < 1 || command.deadline_days > 90) {
    throw invalidInput('deadline_days must be a whole number from 1 to 90');
  }
  const inspectionDays = command.inspection_days ?? INSPECTION_DAYS_DEFAULT;
  if (!Number.isInteger(inspectionDays) || inspectionDays < 0 || inspectionDays > 30) {
    throw invalidInput('inspection_days must be a whole number from 0 to 30');
  }
  if (!Number.isSafeInteger(command.amount_cents) || command.amount_cents <= 0) {
    throw invalidInput('amount_usd must be more than 0');
  }
  if (command.min_amount_cents !== undefined && command.amount_cents < command.min_amount_cents) {
    throw invalidInput(`amount_usd must be at least ${formatCents(command.min_amount_cents)}`);
  }
  const figures = quote({ amount_cents: command.amount_cents, ...command.pricing });
  if (figures.amount_sats <= DUST_LIMIT_SATS) {
    throw invalidInput(
      `amount_usd is too small: ${figures.amount_sats} satoshis at the current rate, and Bitcoin needs more than ${DUST_LIMIT_SATS}`,
    );
  }
  const due = new Date(Date.parse(ctx.now) + command.deadline_days * 86_400_000).toISOString();
  const counterpartySide = command.creator_side === 'buyer' ? 'seller' : 'buyer';
  const bound: EscrowEvent[] = command.counterparty_id
    ? [{ type: 'PartyBound', data: { side: counterpartySide, user_id: command.counterparty_id } }]
    : [];
  const created = allowed(
    state,
    command,
    {
      type: 'EscrowCreated',
      data: {
        escrow_id: command.escrow_id,
        created_by: command.created_by,
        creator_side: command.creator_side,
        buyer_email: command.creator_side === 'buyer' ? creator : counterparty,
        seller_email: command.creator_side === 'seller' ? creator : counterparty,
        product_service: trimmed(command.product_service, 'product_service', 200),
        description: trimmed(command.description, 'description'),
        amount_cents: command.amount_cents,
        fee_bps: command.pricing.fee_bps,
        fee_cents: figures.fee_cents,
        total_cents: figures.total_cents,
        rate_cents: command.pricing.rate_cents,
        amount_sats: figures.amount_sats,
        deadline_days: command.deadline_days,
        payment_due_at: due,
        inspection_days: inspectionDays,
      },
    } as const,
    ctx,
  );
  return [...created, ...bound];
}

/** Refuses money going to an address other than the one the admin saw (409 naming both). */
function expectAddress(expected: string | null | undefined, actual: string | null, what: string) {
  if (expected === undefined || expected === null || expected === '') return;
  if (expected !== actual) {
    throw new DomainError(
      'conflict',
      `The ${what} changed: you saw ${expected}, it is now ${actual ?? 'not set'}. Reload the escrow and check it again`,
      {},
      'address_changed',
    );
  }
}

const held = (until: string | null, what: string) =>
  transitionNotAllowed(
    `The ${what} was replaced recently; money cannot go to it before ${until ? displayUtc(until) : 'its hold ends'}`,
  );
const noPayoutAddress = () => transitionNotAllowed('The seller has not set a payout address yet');
const noRefundAddress = () => transitionNotAllowed('The buyer has not set a refund address yet');

/** Why money cannot go to the seller now (release, split), when the machine refuses it. */
const payoutRefusals = (state: EscrowState, ctx: DecideContext): Refusal[] => [
  [!rules.hasPayoutAddress(state.context), noPayoutAddress()],
  [!rules.payoutFree(state.context, ctx.now), held(state.context.payout_address_held_until, "seller's payout address")],
];
const refundRefusals = (state: EscrowState, ctx: DecideContext): Refusal[] => [
  [!rules.hasRefundAddress(state.context), noRefundAddress()],
  [!rules.refundFree(state.context, ctx.now), held(state.context.refund_address_held_until, "buyer's refund address")],
];

/** Each destination of a payout that receives satoshis. */
function destinationsOf(
  money: { seller_sats: number; buyer_sats: number },
  context: EscrowState['context'],
): Destination[] {
  const out: Destination[] = [];
  if (money.seller_sats > 0) out.push({ to: 'seller', address: context.payout_address!, sats: money.seller_sats });
  if (money.buyer_sats > 0) out.push({ to: 'buyer', address: context.refund_address!, sats: money.buyer_sats });
  return out;
}

/**
 * The one rule for payout and refund addresses: the first one a party sets is theirs to set; any replacement after
 * it, whatever the escrow's status (a stolen session swaps the address before the money arrives as readily as after),
 * takes the party's second factor when they have 2FA on, and holds the new address for `hold_hours`. The mail to both
 * parties and the admins follows from the event (`replaces` is set).
 */
function setPayoutAddress(
  command: Extract<EscrowCommand, { type: 'setPayoutAddress' }>,
  state: EscrowState,
  ctx: DecideContext,
) {
  only(command, state);
  const side = command.by as 'buyer' | 'seller';
  const { context } = state;
  const current = side === 'seller' ? context.payout_address : context.refund_address;
  // The same address again changes nothing, unless it now comes with its proof (then recorded, never held anew).
  if (current === command.address && !command.signature) return [];
  const replacing = current !== null && current !== command.address;
  const hours = command.hold_hours ?? 0;
  const events = allowed(
    state,
    command,
    {
      type: 'PayoutAddressSet',
      data: {
        side,
        address: command.address,
        replaces: current,
        held_until: replacing && hours > 0 ? new Date(Date.parse(ctx.now) + hours * 3_600_000).toISOString() : null,
        ...(command.signature ? { signature: command.signature } : {}),
      },
    } as const,
    ctx,
  );
  if (replacing && command.second_factor === 'missing') {
    const which = side === 'seller' ? 'payout' : 'refund';
    throw new DomainError('invalid_input', `2FA code required to replace your ${which} address`, {}, 'totp_required');
  }
  return events;
}

function resolveDispute(
  command: Extract<EscrowCommand, { type: 'resolveDispute' }>,
  state: EscrowState,
  ctx: DecideContext,
) {
  only(command, state);
  const { context } = state;
  if (command.dispute_id !== undefined && command.dispute_id !== context.dispute_id) {
    throw new DomainError(
      'conflict',
      "This dispute is already resolved; only the escrow's open dispute can be resolved",
    );
  }
  // An agreed settlement is the parties' own outcome: the admin need not write one, nor repeat its terms.
  const settled = context.settlement_kind !== null;
  if (state.status === 'funded' && !settled) {
    throw transitionNotAllowed('There is no open dispute or agreed settlement to resolve on an escrow that is funded');
  }
  const resolution = command.resolution ?? (settled ? context.settlement_kind : null);
  const sellerPercent = command.seller_percent ?? (resolution === 'split' ? context.settlement_seller_percent : null);
  command = { ...command, seller_percent: sellerPercent };
  if (
    resolution === 'split' &&
    (command.seller_percent === null || command.seller_percent < 1 || command.seller_percent > 99)
  ) {
    throw invalidInput('seller_percent must be a whole number from 1 to 99 for a split');
  }
  const toSeller = resolution === 'release' || resolution === 'split';
  const toBuyer = resolution === 'refund' || resolution === 'split';
  if (toSeller) expectAddress(command.expected_address, context.payout_address, "seller's payout address");
  if (resolution === 'refund')
    expectAddress(command.expected_address, context.refund_address, "buyer's refund address");
  if (resolution === 'split') {
    expectAddress(command.expected_refund_address, context.refund_address, "buyer's refund address");
  }
  const money = resolution
    ? payout(resolution, context, resolution === 'split' ? (command.seller_percent ?? 0) : 100)
    : { seller_sats: 0, buyer_sats: 0, fee_sats: 0 };
  const disputed = state.status === 'disputed';
  const settledFunded = settled && state.status === 'funded';
  const asAgreed = settled && resolution === context.settlement_kind;
  return allowed(
    state,
    command,
    {
      type: 'DisputeResolved',
      data: {
        dispute_id: context.dispute_id,
        outcome: asAgreed && !command.outcome.trim() ? SETTLED_OUTCOME : trimmed(command.outcome, 'outcome'),
        resolution,
        seller_percent: resolution === 'split' ? command.seller_percent : null,
        ...money,
        txid: resolution ? command.txid : null,
        ...(resolution ? { destinations: destinationsOf(money, context) } : {}),
        ...(asAgreed && resolution ? { proposal_id: context.settlement_proposal_id! } : {}),
      },
    } as const,
    ctx,
    [
      [
        settled && resolution !== context.settlement_kind,
        transitionNotAllowed(`The parties agreed to a ${context.settlement_kind}; resolve it as they agreed`),
      ],
      [
        resolution === 'split' && settled && command.seller_percent !== context.settlement_seller_percent,
        transitionNotAllowed(`The parties agreed to a split of ${context.settlement_seller_percent}% to the seller`),
      ],
      [
        !disputed && !settled,
        transitionNotAllowed(
          `There is no open dispute or agreed settlement to resolve on an escrow that is ${state.status}`,
        ),
      ],
      [
        disputed && resolution !== null && !rules.disputedWhileFunded(context),
        transitionNotAllowed('No payment was verified before this dispute, so no money can be released or refunded'),
      ],
      // Money moves in a dispute or a funded escrow's agreed settlement alike: each share waits for its address.
      ...((disputed || settledFunded) && toSeller ? payoutRefusals(state, ctx) : []),
      ...((disputed || settledFunded) && toBuyer ? refundRefusals(state, ctx) : []),
    ],
  );
}

/** The outcome recorded when an admin executes a settlement both parties agreed to and writes none. */
export const SETTLED_OUTCOME = 'Settled as both parties agreed';

const settledOtherwise = (context: EscrowState['context']) =>
  transitionNotAllowed(`The parties agreed to a ${context.settlement_kind}; execute it as they agreed`);

/** The proposal's terms, checked as contract 7.5 says; the fields another kind does not use are dropped. */
function proposalOf(command: Extract<EscrowCommand, { type: 'propose' }>, state: EscrowState, ctx: DecideContext) {
  const kind = PROPOSAL_KINDS.find((k) => k === command.kind);
  if (!kind) throw invalidInput(`kind must be one of ${PROPOSAL_KINDS.join(', ')}`);
  const whole = (value: number | null | undefined, field: string, min: number, max: number) => {
    if (value === null || value === undefined) throw invalidInput(`${field} is required for ${kind}`);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw invalidInput(`${field} must be a whole number from ${min} to ${max}`);
    }
    return value;
  };
  const sellerPercent = kind === 'split' ? whole(command.seller_percent, 'seller_percent', 1, 99) : null;
  const days = kind === 'extend_deadline' || kind === 'extend_inspection' ? whole(command.days, 'days', 1, 30) : null;
  const money = kind === 'refund' || kind === 'split' ? payout(kind, state.context, sellerPercent ?? 100) : null;
  return {
    type: 'ProposalMade',
    data: {
      proposal_id: ctx.newId(),
      kind,
      side: command.by as Side,
      seller_percent: sellerPercent,
      days,
      note: optionalText(command.note, 'note', 1000),
      seller_sats: money?.seller_sats ?? null,
      buyer_sats: money?.buyer_sats ?? null,
    },
  } as const;
}

/** Why the machine refused a proposal of this kind now, in the words a party understands. */
function proposalRefusals(kind: string, state: EscrowState): Refusal[] {
  const { context } = state;
  const open = state.status === 'pending_payment' || state.status === 'funded' || state.status === 'disputed';
  const fits = (k: (typeof PROPOSAL_KINDS)[number]) => open && rules.proposalFits(k, state.status as 'funded', context);
  return [
    [
      open && !rules.noOpenProposal(context),
      transitionNotAllowed('A proposal is already open on this escrow; it must be answered or withdrawn first'),
    ],
    [
      open && !rules.notSettled(context),
      transitionNotAllowed('The parties already agreed to a settlement; the admins execute it'),
    ],
    [open && !rules.notDeclined(context), transitionNotAllowed('The terms of this escrow were declined')],
    [
      kind === 'cancel' && open && !fits('cancel'),
      transitionNotAllowed('A cancel can only be proposed before the payment is marked'),
    ],
    [
      (kind === 'refund' || kind === 'split') && open && !fits('refund'),
      transitionNotAllowed(`A ${kind} needs money in escrow: the payment must be marked or verified first`),
    ],
    [
      kind === 'extend_deadline' && open && !fits('extend_deadline'),
      transitionNotAllowed('The payment deadline can only be extended while the escrow waits for payment'),
    ],
    [
      kind === 'extend_inspection' && open && !fits('extend_inspection'),
      transitionNotAllowed('The inspection period can only be extended while it runs'),
    ],
  ];
}

/** The open proposal a command answers; an earlier one is no longer open (409). */
function openProposal(command: { proposal_id: string }, state: EscrowState) {
  if (state.context.open_proposal_id !== command.proposal_id) {
    throw transitionNotAllowed('This proposal is no longer open');
  }
}

function acceptProposal(
  command: Extract<EscrowCommand, { type: 'acceptProposal' }>,
  state: EscrowState,
  ctx: DecideContext,
) {
  only(command, state);
  const { context } = state;
  openProposal(command, state);
  if (context.open_proposal_side === command.by)
    throw forbidden('Only the other side can accept this proposal; you may withdraw it');
  const kind = context.open_proposal_kind;
  const days = (base: string | null) =>
    new Date(Date.parse(base ?? ctx.now) + (context.open_proposal_days ?? 0) * DAY_MS).toISOString();
  const accepted = {
    type: 'ProposalAccepted',
    data: {
      proposal_id: command.proposal_id,
      side: command.by as Side,
      ...(kind === 'extend_deadline' ? { payment_due_at: days(context.payment_due_at) } : {}),
      ...(kind === 'extend_inspection' ? { inspection_ends_at: days(context.inspection_ends_at) } : {}),
    },
  } as const;
  const refusal = proposalRefusals(kind ?? '', state).slice(3);
  if (kind !== 'cancel') return allowed(state, command, accepted, ctx, refusal);
  const cancelled = {
    type: 'EscrowCancelled',
    data: { reason: 'Cancelled as both parties agreed', proposal_id: command.proposal_id },
  } as const;
  allowed(state, command, accepted, ctx, refusal);
  return allowedInTurn(state, command, [accepted, cancelled], ctx);
}

/** Turns a command into the escrow's new events, or refuses it with a DomainError. Pure. */
export function decideEscrow(command: EscrowCommand, state: EscrowState, ctx: DecideContext): EscrowEvent[] {
  const { context } = state;
  const pending = state.status === 'pending_payment';
  const funded = state.status === 'funded';
  switch (command.type) {
    case 'create':
      return create(command, state, ctx);
    case 'requestPayment':
    case 'assignAddress':
      only(command, state);
      // A buyer who asks for the address of a seller's escrow agrees to its terms by asking: one click, "Agree and
      // pay", and both are recorded, the agreement first.
      if (command.type === 'requestPayment' && buyerAgreesFirst(state)) return agreeingFirst(command, state, ctx);
      return allowed(
        state,
        command,
        {
          type: 'PaymentAddressAssigned',
          data: {
            address_id: command.address_id,
            address: command.address,
            assigned_via: command.type === 'assignAddress' ? 'admin' : 'buyer',
          },
        } as const,
        ctx,
        [
          [
            pending && !rules.hasNoAddress(context),
            new DomainError('conflict', 'This escrow already has a payment address'),
          ],
          [pending && !rules.buyerAgreed(context), notAgreed()],
          [!rules.notDeclined(context), transitionNotAllowed('The terms of this escrow were declined')],
        ],
      );
    case 'markPaid':
      only(command, state);
      if (buyerAgreesFirst(state)) return agreeingFirst(command, state, ctx);
      return allowed(
        state,
        command,
        { type: 'PaymentMarked', data: { notes: command.notes.trim(), evidence: command.evidence } } as const,
        ctx,
        [
          [
            pending && !rules.hasAddress(context),
            transitionNotAllowed('No payment address is assigned yet; request one first'),
          ],
          [
            pending && rules.isMarked(context),
            transitionNotAllowed('The payment is already marked as sent; an admin is checking it'),
          ],
          [pending && !rules.buyerAgreed(context), notAgreed()],
        ],
      );
    case 'rejectPayment':
      only(command, state);
      return allowed(state, command, { type: 'PaymentRejected', data: { notes: command.notes.trim() } } as const, ctx);
    case 'verifyPayment':
      only(command, state);
      if (command.proof && command.proof.received_sats < context.amount_sats && !command.accept_partial) {
        const { received_sats } = command.proof;
        throw invalidInput(
          `only ${received_sats} of the ${context.amount_sats} satoshis arrived; set accept_partial=true to accept it`,
        );
      }
      return allowed(
        state,
        command,
        {
          type: 'PaymentVerified',
          data: { notes: command.notes.trim(), txid: command.txid, ...(command.proof ? { proof: command.proof } : {}) },
        } as const,
        ctx,
      );
    case 'confirmReceipt':
      only(command, state);
      return allowed(state, command, { type: 'ReceiptConfirmed', data: {} } as const, ctx);
    case 'setPayoutAddress':
      return setPayoutAddress(command, state, ctx);
    case 'release': {
      only(command, state);
      if (funded) expectAddress(command.expected_address, context.payout_address, "seller's payout address");
      const money = payout('release', context);
      return allowed(
        state,
        command,
        {
          type: 'EscrowReleased',
          data: {
            notes: command.notes.trim(),
            txid: command.txid,
            ...pick(money, 'seller_sats', 'fee_sats'),
            destinations: funded ? destinationsOf(money, context) : [],
          },
        } as const,
        ctx,
        funded ? [[!rules.notSettled(context), settledOtherwise(context)], ...payoutRefusals(state, ctx)] : [],
      );
    }
    case 'refund': {
      only(command, state);
      if (funded) expectAddress(command.expected_address, context.refund_address, "buyer's refund address");
      const money = payout('refund', context);
      return allowed(
        state,
        command,
        {
          type: 'EscrowRefunded',
          data: {
            notes: command.notes.trim(),
            txid: command.txid,
            ...pick(money, 'buyer_sats', 'fee_sats'),
            destinations: funded ? destinationsOf(money, context) : [],
            ...(context.settlement_kind === 'refund' ? { proposal_id: context.settlement_proposal_id! } : {}),
          },
        } as const,
        ctx,
        funded ? [[context.settlement_kind === 'split', settledOtherwise(context)], ...refundRefusals(state, ctx)] : [],
      );
    }
    case 'bindParty': {
      only(command, state);
      if (state.status === 'draft') throw new DomainError('not_found', 'Escrow not found');
      const bound = state.parties[command.side];
      if (bound === command.user_id) return [];
      if (bound !== null) throw forbidden(`The ${command.side} of this escrow is another account`);
      return [{ type: 'PartyBound', data: { side: command.side, user_id: command.user_id } }];
    }
    case 'openDispute':
      only(command, state);
      return allowed(
        state,
        command,
        {
          type: 'DisputeOpened',
          data: {
            // The dispute is a new record: its id is drawn here, like every id the decider hands out.
            dispute_id: ctx.newId(),
            reason: trimmed(command.reason, 'reason'),
            opened_by_side: command.by as 'buyer' | 'seller',
          },
        } as const,
        ctx,
      );
    case 'resolveDispute':
      return resolveDispute(command, state, ctx);
    case 'cancel':
      only(command, state);
      return allowed(
        state,
        command,
        { type: 'EscrowCancelled', data: { reason: 'Cancelled by the creator' } } as const,
        ctx,
        [
          [
            pending && rules.isMarked(context),
            transitionNotAllowed('The buyer has marked this escrow as paid; it can no longer be cancelled'),
          ],
        ],
      );
    case 'agree':
      only(command, state);
      return allowed(state, command, { type: 'TermsAgreed', data: { side: command.by as Side } } as const, ctx, [
        [context.agreed_at !== null, transitionNotAllowed('You already agreed to the terms of this escrow')],
        [context.declined_at !== null, transitionNotAllowed('You declined the terms of this escrow')],
      ]);
    case 'decline':
      only(command, state);
      return allowed(
        state,
        command,
        {
          type: 'TermsDeclined',
          data: { side: command.by as Side, reason: trimmed(command.reason, 'reason', 1000) },
        } as const,
        ctx,
        [
          [context.agreed_at !== null, transitionNotAllowed('You already agreed to the terms of this escrow')],
          [context.declined_at !== null, transitionNotAllowed('You already declined the terms of this escrow')],
        ],
      );
    case 'ship': {
      only(command, state);
      const shipment = shipmentOf(command);
      return allowed(state, command, { type: 'ShipmentRecorded', data: shipment } as const, ctx, [
        [
          funded && !rules.sellerAgreed(context),
          transitionNotAllowed('Agree to the terms before recording a shipment'),
        ],
        [funded && rules.isShipped(context), transitionNotAllowed('The shipment is already recorded')],
        [funded && !rules.notDeclined(context), transitionNotAllowed('You declined the terms of this escrow')],
      ]);
    }
    case 'receive': {
      only(command, state);
      const days = context.inspection_days ?? INSPECTION_DAYS_DEFAULT;
      const endsAt = new Date(Date.parse(ctx.now) + days * DAY_MS).toISOString();
      const received = { type: 'GoodsReceived', data: { inspection_ends_at: endsAt } } as const;
      if (!state.snapshot.can({ ...received, at: ctx.now } as EscrowMachineEvent)) {
        allowed(state, command, received, ctx, [
          [funded && !rules.isShipped(context), transitionNotAllowed('The seller has not recorded a shipment yet')],
          [funded && !rules.notReceived(context), transitionNotAllowed('The goods are already marked as received')],
        ]);
      }
      // No inspection period: receiving is accepting.
      return allowedInTurn(
        state,
        command,
        days === 0 ? [received, { type: 'ReceiptConfirmed', data: {} }] : [received],
        ctx,
      );
    }
    case 'acceptAfterInspection':
      only(command, state);
      return allowed(state, command, { type: 'ReceiptConfirmed', data: { automatic: true } } as const, ctx, [
        [
          funded && !rules.inspectionOver(context, ctx.now),
          transitionNotAllowed('The inspection period has not ended'),
        ],
      ]);
    case 'cancelByAdmin':
      only(command, state);
      return allowed(
        state,
        command,
        { type: 'EscrowCancelled', data: { reason: trimmed(command.reason, 'reason', 1000), by: 'admin' } } as const,
        ctx,
        [
          [
            pending && rules.isMarked(context),
            transitionNotAllowed(
              'The buyer has marked this escrow as paid; reject or verify the payment instead of cancelling',
            ),
          ],
        ],
      );
    case 'expire':
      only(command, state);
      return allowed(state, command, { type: 'EscrowExpired', data: {} } as const, ctx, [
        [pending && !rules.pastDeadline(context, ctx.now), transitionNotAllowed('The payment deadline has not passed')],
      ]);
    case 'freeze':
      only(command, state);
      return allowed(
        state,
        command,
        { type: 'EscrowFrozen', data: { reason: trimmed(command.reason, 'reason', 1000) } } as const,
        ctx,
      );
    case 'unfreeze':
      only(command, state);
      return allowed(state, command, { type: 'EscrowUnfrozen', data: { reason: command.reason.trim() } } as const, ctx);
    case 'postMessage':
      only(command, state);
      return allowed(
        state,
        command,
        {
          type: 'MessagePosted',
          data: {
            message_id: ctx.newId(),
            side: command.by as 'buyer' | 'seller' | 'admin',
            text: trimmed(command.text, 'text', MAX_MESSAGE_CHARS),
            ...(command.file ? { file: command.file } : {}),
          },
        } as const,
        ctx,
      );
    case 'propose':
      only(command, state);
      return allowed(state, command, proposalOf(command, state, ctx), ctx, proposalRefusals(command.kind, state));
    case 'acceptProposal':
      return acceptProposal(command, state, ctx);
    case 'declineProposal':
      only(command, state);
      openProposal(command, state);
      if (context.open_proposal_side === command.by)
        throw forbidden('Only the other side can decline this proposal; you may withdraw it');
      return allowed(
        state,
        command,
        {
          type: 'ProposalDeclined',
          data: {
            proposal_id: command.proposal_id,
            side: command.by as Side,
            reason: optionalText(command.reason, 'reason', 1000),
          },
        } as const,
        ctx,
      );
    case 'withdrawProposal':
      only(command, state);
      openProposal(command, state);
      if (context.open_proposal_side !== command.by)
        throw forbidden('Only the side that made this proposal can withdraw it');
      return allowed(
        state,
        command,
        { type: 'ProposalWithdrawn', data: { proposal_id: command.proposal_id, side: command.by as Side } } as const,
        ctx,
      );
    default: {
      const unknown: never = command;
      throw new Error(`Unknown escrow command ${(unknown as { type: string }).type}`);
    }
  }
}

/**
 * Refuses the command as the decider would, without keeping its events: for what must be known before the command
 * can be given in full (Make Payment looks for a free address only when the escrow may take one).
 */
export function refuseUnlessAllowed(command: EscrowCommand, state: EscrowState, now: string): void {
  decideEscrow(command, state, { now, newId: () => '00000000-0000-4000-8000-000000000000', actor: '' });
}

function pick<T extends object, K extends keyof T>(value: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>;
}
