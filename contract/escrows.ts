import { z } from 'zod';
import { ESCROW_ACTIONS } from '../domain/escrow/allowed-actions.ts';
import type { EscrowHistoryEntry as PartyHistoryEntry } from '../domain/escrow/history.ts';

const isoTime = z.string().describe('ISO 8601 time, UTC');
const optionalTime = isoTime.nullable();
const usd = z.number().describe('US dollars, 2 decimals');
const sats = z.number().int().describe('Satoshis');

export const escrowStatusSchema = z.enum([
  'pending_payment',
  'funded',
  'released',
  'disputed',
  'frozen',
  'cancelled',
  'refunded',
]);

/** The escrow's latest dispute as its parties see it (no account ids). */
export const escrowDisputeSchema = z.strictObject({
  id: z.string(),
  reason: z.string(),
  opened_by_side: z.enum(['buyer', 'seller']),
  opened_at: isoTime,
  status: z.enum(['open', 'resolved']),
  outcome: z.string().nullable(),
  resolution: z.enum(['release', 'refund', 'split']).nullable(),
  seller_percent: z.number().int().nullable(),
  resolved_at: optionalTime,
});

/** The seller's shipment as recorded (contract 7.2). */
export const shipmentSchema = z.strictObject({
  method: z.enum(['shipping', 'digital', 'service']),
  carrier: z.string().nullable(),
  tracking: z.string().nullable(),
  note: z.string().nullable(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** A settlement proposal (contract 7.5): its kind, where it stands, who made it, and its amounts in satoshis. */
export const proposalSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(['cancel', 'refund', 'split', 'extend_deadline', 'extend_inspection']),
  status: z.enum(['open', 'accepted', 'declined', 'withdrawn']),
  proposed_by: z.enum(['buyer', 'seller']),
  seller_percent: z.number().int().nullable().describe("The seller's percent of a split; null for other kinds"),
  days: z.number().int().nullable().describe('Days an extension adds; null for other kinds'),
  note: z.string().nullable(),
  seller_sats: sats.nullable().describe('What the seller would receive (refund, split); null for other kinds'),
  buyer_sats: sats.nullable().describe('What the buyer would receive (refund, split); null for other kinds'),
  created_at: isoTime,
});
export type Proposal = z.infer<typeof proposalSchema>;

/** An escrow as the API shows it to its parties and to admins. */
export const escrowSchema = z.strictObject({
  side: z.enum(['buyer', 'seller', 'admin']).describe('Where the caller stands on this escrow'),
  allowed_actions: z
    .array(z.enum(ESCROW_ACTIONS))
    .describe('What the caller may do on this escrow now (contract 7.7): offer exactly these'),
  id: z.string(),
  product_service: z.string(),
  description: z.string(),
  amount_usd: usd,
  escrow_fee: usd,
  total_usd: usd,
  fee_percentage: z.number().describe('Percent, 2 decimals'),
  btc_usd_rate: usd.describe('The rate the BTC amount was fixed at'),
  amount_btc: z.number().describe('BTC, 8 decimals'),
  amount_sats: sats,
  status: escrowStatusSchema,
  buyer_email: z.string(),
  seller_email: z.string(),
  buyer_id: z.string().nullable(),
  seller_id: z
    .string()
    .nullable()
    .describe('The seller account the escrow is bound to, once a verified account is its seller'),
  created_by: z.string(),
  creator_side: z.enum(['buyer', 'seller']),
  assigned_address: z.string().nullable().describe('Where the buyer pays'),
  deadline_days: z.number().int(),
  payment_due_at: isoTime,
  payment_marked_at: optionalTime,
  buyer_confirmed_at: optionalTime,
  payout_address: z.string().nullable(),
  refund_address: z.string().nullable(),
  payout_address_proven: z.boolean().describe('The payout address came with a BIP-322 signature by it'),
  refund_address_proven: z.boolean().describe('The refund address came with a BIP-322 signature by it'),
  payout_address_held_until: optionalTime.describe('A replaced payout address receives no money before this time'),
  refund_address_held_until: optionalTime.describe('A replaced refund address receives no money before this time'),
  payment_txid: z.string().nullable(),
  payment_proof: z
    .strictObject({
      block_hash: z.string(),
      confirmations: z
        .number()
        .int()
        .describe('Headers from the block to the last one given, its own included, when verified'),
      received_sats: sats,
      proof_sha256: z.string(),
      work_judged: z.boolean().describe('false on test networks: the headers prove no work there'),
    })
    .nullable()
    .describe('What the payment proof showed, or null when an admin checked the payment by hand'),
  payout_txid: z.string().nullable(),
  seller_sats: sats.nullable(),
  buyer_sats: sats.nullable(),
  fee_sats: sats.nullable(),
  funded_at: optionalTime,
  payment_rejected_at: optionalTime,
  dispute: escrowDisputeSchema.nullable(),
  inspection_days: z
    .number()
    .int()
    .nullable()
    .describe('Days the buyer has to inspect after marking received; null on escrows made before inspection periods'),
  agreed_at: optionalTime.describe('When the counterparty agreed to the terms (the creator agreed by creating)'),
  declined_at: optionalTime.describe('When the counterparty declined the terms'),
  decline_reason: z.string().nullable(),
  shipped_at: optionalTime,
  shipment: shipmentSchema.nullable(),
  received_at: optionalTime.describe('When the buyer marked the goods received, starting the inspection period'),
  inspection_ends_at: optionalTime.describe(
    'When the system accepts the goods unless the buyer accepts or disputes first',
  ),
  ready_to_release: z
    .boolean()
    .describe(
      'An admin may pay out now: receipt confirmed and the payout address set and not held, or a refund or split both parties agreed to',
    ),
  refund_due: z.boolean().describe('The counterparty declined after the payment was marked or verified: admins refund'),
  proposals: z.array(proposalSchema).describe('Settlement proposals, oldest first (contract 7.5)'),
  created_at: isoTime,
  updated_at: isoTime,
});
export type Escrow = z.infer<typeof escrowSchema>;

export const escrowListSchema = z.array(escrowSchema);

/** GET /api/admin/escrows: a page of every escrow, and how many there are. */
export const adminEscrowPageSchema = z.strictObject({
  total: z.number().int(),
  ready_count: z.number().int().describe('Escrows ready to release now, whatever the filter (the Escrows tab count)'),
  refund_due_count: z.number().int().describe('Escrows declined after payment, waiting for an admin to refund them'),
  escrows: z.array(escrowSchema),
});

/** An evidence file of a payment mark (its bytes at `file_path`, for admins and the escrow's parties). */
export const evidenceFileSchema = z.strictObject({
  id: z.string(),
  notes: z.string().describe("The buyer's notes on the payment mark the file came with"),
  file_path: z.string().describe('The URL that serves the file'),
  marked_at: isoTime,
  mark_status: z.enum(['pending', 'rejected', 'verified']),
  evidence_id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  url: z.string(),
});

/** GET /api/escrows/{id}: the escrow with the evidence of its payment marks. */
export const escrowDetailSchema = escrowSchema.extend({ evidence: z.array(evidenceFileSchema) });

/** GET /api/admin/pending-verifications: a marked payment waiting for an admin. */
export const pendingVerificationSchema = z.strictObject({
  escrow: escrowSchema,
  notes: z.string(),
  marked_at: isoTime,
  evidence: z.array(evidenceFileSchema),
});
export const pendingVerificationsSchema = z.array(pendingVerificationSchema);

/** GET /api/admin/disputes: a dispute with the accounts involved. */
export const adminDisputeSchema = z.strictObject({
  id: z.string(),
  escrow_id: z.string(),
  reason: z.string(),
  opened_by_side: z.enum(['buyer', 'seller']),
  opened_by: z.string(),
  opened_at: isoTime,
  status: z.enum(['open', 'resolved']),
  outcome: z.string().nullable(),
  resolution: z.enum(['release', 'refund', 'split']).nullable(),
  seller_percent: z.number().int().nullable(),
  resolved_by: z.string().nullable(),
  resolved_at: optionalTime,
  evidence: z.array(evidenceFileSchema),
});
export const adminDisputesSchema = z.array(adminDisputeSchema);

/** GET /api/admin/escrows/{id}/history: every event of the escrow with the state after it. */
export const adminEscrowHistoryEntrySchema = z.strictObject({
  position: z.number().int(),
  version: z.number().int(),
  type: z.string(),
  summary: z.string().describe('The event in words, users named by their usernames (as in the audit log)'),
  occurred_at: isoTime,
  actor: z.string(),
  actor_username: z
    .string()
    .nullable()
    .describe("The acting user's username; null for system or a user no longer there"),
  data: z.record(z.string(), z.unknown()).describe("The event's data as recorded (see the event catalogue)"),
  status_after: escrowStatusSchema,
  after: z.strictObject({
    address: z.string().nullable(),
    payment_marked_at: optionalTime,
    buyer_confirmed_at: optionalTime,
    payout_address: z.string().nullable(),
    refund_address: z.string().nullable(),
    dispute_id: z.string().nullable(),
  }),
});
export const adminEscrowHistorySchema = z.array(adminEscrowHistoryEntrySchema);

/** GET /api/escrows/{id}/history: one entry of the parties' timeline (written by domain/escrow/history.ts). */
export const escrowHistoryEntrySchema = z.object({
  version: z.number().int(),
  occurred_at: z.string(),
  type: z.string(),
  summary: z.string(),
  actor_side: z.enum(['buyer', 'seller', 'admin', 'system']),
  reason: z.string().nullable(),
  outcome: z.string().nullable(),
  address: z.string().nullable(),
  txid: z.string().nullable(),
  seller_percent: z.number().int().nullable(),
  seller_sats: z.number().int().nullable(),
  buyer_sats: z.number().int().nullable(),
  evidence_files: z.number().int().nullable(),
});
export type EscrowHistoryEntry = z.infer<typeof escrowHistoryEntrySchema>;

/** The schema and the domain's entry must say the same: the schema strips a field it lacks, without a word. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const historyMatchesDomain: Same<EscrowHistoryEntry, PartyHistoryEntry> = true;
void historyMatchesDomain;
