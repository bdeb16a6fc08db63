import { z } from 'zod';
import { email, isoTime, money, side, txid, uuid } from '../shared/schemas.ts';
import { MAX_MESSAGE_CHARS } from './message-rules.ts';

/** Facts about one escrow, stored on the stream `escrow:{escrow_id}`. */

export const evidenceRef = z.object({
  evidence_id: uuid,
  filename: z.string().max(255),
  content_type: z.string().max(100),
  size_bytes: money,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EvidenceRef = z.infer<typeof evidenceRef>;

export const escrowCreated = z.object({
  escrow_id: uuid,
  created_by: uuid,
  creator_side: side,
  buyer_email: email,
  seller_email: email,
  product_service: z.string().min(1).max(200),
  description: z.string().min(1).max(5000),
  amount_cents: money,
  /** Fee in basis points in force at creation (150 = 1.5%). */
  fee_bps: money,
  fee_cents: money,
  total_cents: money,
  /** BTC/USD rate in cents in force at creation. */
  rate_cents: money,
  amount_sats: money,
  deadline_days: z.number().int().min(1).max(90),
  payment_due_at: isoTime,
  /**
   * Days the buyer has to inspect after marking the goods received (0: accepted on receipt). Absent on escrows
   * created before agreement and inspection existed: those keep the rules they were made under.
   */
  inspection_days: z.number().int().min(0).max(30).optional(),
});

export const paymentAddressAssigned = z.object({
  address_id: uuid,
  address: z.string(),
  /** 'buyer' when the buyer asked (Make Payment or at creation), 'admin' when an admin assigned it. */
  assigned_via: z.enum(['buyer', 'admin']),
});
export const paymentMarked = z.object({
  notes: z.string().max(5000),
  evidence: z.array(evidenceRef).max(10),
});
export const paymentRejected = z.object({ notes: z.string().max(5000) });
/**
 * What a payment proof (SPV: the transaction, its partial Merkle tree and the headers after it) showed when the
 * payment was verified; the proof's bytes are kept beside the log (`payment_proofs`), named by their SHA-256.
 */
export const paymentProof = z.object({
  block_hash: z.string().regex(/^[0-9a-f]{64}$/),
  confirmations: z.number().int().min(1),
  received_sats: money,
  proof_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Whether the headers' work was judged (mainnet); on test networks it is not. */
  work_judged: z.boolean(),
});
export type PaymentProof = z.infer<typeof paymentProof>;
/** `proof` is absent when an admin checked the payment by hand (and on events written before proofs existed). */
export const paymentVerified = z.object({
  notes: z.string().max(5000),
  txid: txid.nullable(),
  proof: paymentProof.optional(),
});
/** `automatic`: the inspection period ended with neither acceptance nor dispute, so the system accepted. */
export const receiptConfirmed = z.object({ automatic: z.literal(true).optional() });
/** The counterparty agrees to the terms as created (the creator agreed by creating). */
export const termsAgreed = z.object({ side });
/**
 * The counterparty declines the terms. Unpaid, the escrow is cancelled by it (and its address freed); once the
 * payment was marked or verified, the escrow is to be refunded by the admins (`refund_due`).
 */
export const termsDeclined = z.object({ side, reason: z.string().min(1).max(1000) });
export const shipmentMethod = z.enum(['shipping', 'digital', 'service']);
export const shipmentRecorded = z.object({
  method: shipmentMethod,
  carrier: z.string().min(1).max(60).nullable(),
  tracking: z.string().max(100).nullable(),
  note: z.string().max(1000).nullable(),
});
export type Shipment = z.infer<typeof shipmentRecorded>;
/** The buyer has the goods: the inspection period runs until `inspection_ends_at`. */
export const goodsReceived = z.object({ inspection_ends_at: isoTime });
/**
 * `replaces` and `held_until` are absent on events written before addresses could be held: those set an address with
 * no hold. `held_until` is set when an address already set is replaced once the escrow is funded: money cannot go to
 * it before then.
 */
export const payoutAddressSet = z.object({
  side,
  address: z.string(),
  replaces: z.string().nullable().optional(),
  held_until: isoTime.nullable().optional(),
  /** A BIP-322 simple signature (base64) of the address message by this address: present, the address is proven. */
  signature: z.string().max(1000).optional(),
});
/** Where money went: each destination address and its satoshis (absent on events written before they were recorded). */
export const destination = z.object({ to: side, address: z.string(), sats: money });
export type Destination = z.infer<typeof destination>;
const destinations = z.array(destination).max(2).optional();
/** Payout figures make satoshi conservation checkable from the log: seller + buyer + fee = amount_sats. */
/** `proposal_id`: the money moved as both parties agreed in that proposal (contract 7.5), not by an admin's judgement. */
const settledBy = uuid.optional();
export const escrowReleased = z.object({
  notes: z.string().max(5000),
  txid: txid.nullable(),
  seller_sats: money,
  fee_sats: money,
  destinations,
  proposal_id: settledBy,
});
export const escrowRefunded = z.object({
  notes: z.string().max(5000),
  txid: txid.nullable(),
  buyer_sats: money,
  fee_sats: money,
  destinations,
  proposal_id: settledBy,
});
export const disputeOpened = z.object({
  dispute_id: uuid,
  reason: z.string().min(1).max(5000),
  opened_by_side: side,
});
/**
 * An admin's resolution of the escrow's open dispute, or (`dispute_id` null, `proposal_id` set) the execution of a
 * refund or split both parties agreed to without a dispute.
 */
export const disputeResolved = z.object({
  dispute_id: uuid.nullable(),
  outcome: z.string().min(1).max(5000),
  resolution: z.enum(['release', 'refund', 'split']).nullable(),
  seller_percent: z.number().int().min(1).max(99).nullable(),
  seller_sats: money,
  buyer_sats: money,
  fee_sats: money,
  txid: txid.nullable(),
  destinations,
  proposal_id: settledBy,
});
/** `by: 'admin'`: an admin cancelled it (abuse, a suspended account), with the reason given; absent: its creator. */
export const escrowCancelled = z.object({
  reason: z.string().max(1000),
  by: z.literal('admin').optional(),
  /** Cancelled because the parties agreed to it in this proposal. */
  proposal_id: settledBy,
});
export const escrowExpired = z.object({});
export const escrowFrozen = z.object({ reason: z.string().min(1).max(1000) });
export const escrowUnfrozen = z.object({ reason: z.string().max(1000) });
/**
 * A verified account is now this side of the escrow: from here on the side belongs to that user id, not to whoever
 * holds the e-mail address later (an account registered after the user was deleted sees nothing).
 */
export const partyBound = z.object({ side, user_id: uuid });
/**
 * A message in the escrow's conversation, by a party or an admin. It can never be edited or deleted. An attachment's
 * bytes are kept beside the log (`evidence_files`), named here by their SHA-256, like payment evidence.
 */
export const messagePosted = z.object({
  message_id: uuid,
  side: z.enum(['buyer', 'seller', 'admin']),
  text: z.string().min(1).max(MAX_MESSAGE_CHARS),
  file: evidenceRef.optional(),
});

/** Settlement by agreement (contract 7.5): what a party may propose to the other. */
export const PROPOSAL_KINDS = ['cancel', 'refund', 'split', 'extend_deadline', 'extend_inspection'] as const;
export const proposalKind = z.enum(PROPOSAL_KINDS);
export type ProposalKind = z.infer<typeof proposalKind>;
/**
 * A party proposes a settlement to the other. `seller_percent` is set for a split, `days` for an extension; the
 * satoshis each side would receive are fixed here for a refund or a split (null for the other kinds).
 */
export const proposalMade = z.object({
  proposal_id: uuid,
  kind: proposalKind,
  side,
  seller_percent: z.number().int().min(1).max(99).nullable(),
  days: z.number().int().min(1).max(30).nullable(),
  note: z.string().max(1000).nullable(),
  seller_sats: money.nullable(),
  buyer_sats: money.nullable(),
});
/** The other side accepts: an extension records the time it moves to; a cancel is followed by `EscrowCancelled`. */
export const proposalAccepted = z.object({
  proposal_id: uuid,
  side,
  payment_due_at: isoTime.optional(),
  inspection_ends_at: isoTime.optional(),
});
export const proposalDeclined = z.object({ proposal_id: uuid, side, reason: z.string().max(1000).nullable() });
export const proposalWithdrawn = z.object({ proposal_id: uuid, side });

export const escrowEventSchemas = {
  EscrowCreated: escrowCreated,
  PaymentAddressAssigned: paymentAddressAssigned,
  PaymentMarked: paymentMarked,
  PaymentRejected: paymentRejected,
  PaymentVerified: paymentVerified,
  ReceiptConfirmed: receiptConfirmed,
  TermsAgreed: termsAgreed,
  TermsDeclined: termsDeclined,
  ShipmentRecorded: shipmentRecorded,
  GoodsReceived: goodsReceived,
  PayoutAddressSet: payoutAddressSet,
  EscrowReleased: escrowReleased,
  EscrowRefunded: escrowRefunded,
  DisputeOpened: disputeOpened,
  DisputeResolved: disputeResolved,
  EscrowCancelled: escrowCancelled,
  EscrowExpired: escrowExpired,
  EscrowFrozen: escrowFrozen,
  EscrowUnfrozen: escrowUnfrozen,
  PartyBound: partyBound,
  MessagePosted: messagePosted,
  ProposalMade: proposalMade,
  ProposalAccepted: proposalAccepted,
  ProposalDeclined: proposalDeclined,
  ProposalWithdrawn: proposalWithdrawn,
} as const;

type Schemas = typeof escrowEventSchemas;
export type EscrowEventType = keyof Schemas;
export type EscrowEvent = { [K in EscrowEventType]: { type: K; data: z.infer<Schemas[K]> } }[EscrowEventType];
