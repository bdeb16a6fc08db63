import { defineProjection, type ProjectedEvent } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';
import type { RowOf } from '../tables.ts';
import { updateRow } from '../update-row.ts';

const TABLE = 'escrows';
const CAUSE = { projection: 'escrows', noun: 'escrow' };

/** The changes with the row's update time (set on the changes' own object: replay runs this a million times). */
const stamped = (changes: EscrowChanges, at: string): EscrowChanges => Object.assign(changes, { updated_at: at });

type EscrowChanges = Partial<RowOf<typeof TABLE>>;

const NO_OPEN_PROPOSAL = {
  open_proposal_id: null,
  open_proposal_kind: null,
  open_proposal_side: null,
  open_proposal_seller_percent: null,
  open_proposal_days: null,
} as const;

/**
 * The status an escrow goes back to (from before its freeze or dispute). The log sets it before any event that
 * returns to it; were it missing the row could not be written (status is never null), so say which event broke.
 */
function statusBefore(saved: string | null, event: ProjectedEvent, id: string): string {
  if (saved === null)
    throw new Error(`escrows projection: ${event.type} for escrow ${id} with no status to go back to`);
  return saved;
}

/** Changes to the escrow row for each event; none where the event is only recorded elsewhere. */
function changesFor(event: ProjectedEvent, row: RowOf<typeof TABLE>): EscrowChanges {
  const at = event.occurred_at;
  switch (event.type) {
    case 'PaymentAddressAssigned':
      return { assigned_address_id: event.data.address_id, assigned_address: event.data.address };
    case 'PaymentMarked':
      return { payment_marked_at: at };
    case 'PaymentRejected':
      return { payment_marked_at: null };
    case 'PaymentVerified':
      return {
        status: 'funded',
        funded_at: at,
        payment_txid: event.data.txid,
        payment_block_hash: event.data.proof?.block_hash ?? null,
        payment_confirmations: event.data.proof?.confirmations ?? null,
        payment_received_sats: event.data.proof?.received_sats ?? null,
        payment_proof_sha256: event.data.proof?.proof_sha256 ?? null,
        payment_work_judged: event.data.proof?.work_judged ?? null,
      };
    case 'ReceiptConfirmed':
      return { buyer_confirmed_at: at };
    case 'TermsAgreed':
      return { agreed_at: at };
    case 'TermsDeclined':
      // Unpaid, a decline cancels the escrow (the machine says so: the payment is not marked).
      return row.status === 'pending_payment' && row.payment_marked_at === null
        ? { declined_at: at, decline_reason: event.data.reason, status: 'cancelled', closed_at: at }
        : { declined_at: at, decline_reason: event.data.reason };
    case 'ShipmentRecorded':
      return {
        shipped_at: at,
        shipment_method: event.data.method,
        shipment_carrier: event.data.carrier,
        shipment_tracking: event.data.tracking,
        shipment_note: event.data.note,
      };
    case 'GoodsReceived':
      return { received_at: at, inspection_ends_at: event.data.inspection_ends_at };
    case 'ProposalMade':
      return {
        open_proposal_id: event.data.proposal_id,
        open_proposal_kind: event.data.kind,
        open_proposal_side: event.data.side,
        open_proposal_seller_percent: event.data.seller_percent,
        open_proposal_days: event.data.days,
      };
    case 'ProposalAccepted': {
      // As the machine: an extension moves its time, a refund or a split becomes the admins' instruction.
      const kind = row.open_proposal_kind;
      const settles = kind === 'refund' || kind === 'split';
      return {
        ...NO_OPEN_PROPOSAL,
        ...(event.data.payment_due_at ? { payment_due_at: event.data.payment_due_at } : {}),
        ...(event.data.inspection_ends_at ? { inspection_ends_at: event.data.inspection_ends_at } : {}),
        ...(settles
          ? {
              settlement_proposal_id: event.data.proposal_id,
              settlement_kind: kind,
              settlement_seller_percent: kind === 'split' ? row.open_proposal_seller_percent : null,
            }
          : {}),
      };
    }
    case 'ProposalDeclined':
    case 'ProposalWithdrawn':
      return { ...NO_OPEN_PROPOSAL };
    case 'PayoutAddressSet':
      return event.data.side === 'seller'
        ? {
            payout_address: event.data.address,
            payout_address_held_until: event.data.held_until ?? null,
            payout_address_proven: event.data.signature !== undefined,
          }
        : {
            refund_address: event.data.address,
            refund_address_held_until: event.data.held_until ?? null,
            refund_address_proven: event.data.signature !== undefined,
          };
    case 'PartyBound':
      return event.data.side === 'buyer' ? { buyer_id: event.data.user_id } : { seller_id: event.data.user_id };
    case 'EscrowReleased':
      return {
        status: 'released',
        closed_at: at,
        payout_txid: event.data.txid,
        seller_sats: event.data.seller_sats,
        buyer_sats: 0,
        fee_sats: event.data.fee_sats,
      };
    case 'EscrowRefunded':
      return {
        status: 'refunded',
        closed_at: at,
        payout_txid: event.data.txid,
        seller_sats: 0,
        buyer_sats: event.data.buyer_sats,
        fee_sats: event.data.fee_sats,
      };
    case 'DisputeOpened':
      return {
        status: 'disputed',
        status_before_dispute: row.status,
        open_dispute_id: event.data.dispute_id,
      };
    case 'DisputeResolved': {
      const { resolution } = event.data;
      const base = { open_dispute_id: null, status_before_dispute: null };
      if (resolution === null) return { ...base, status: statusBefore(row.status_before_dispute, event, row.id) };
      return {
        ...base,
        status: resolution === 'refund' ? 'refunded' : 'released',
        closed_at: at,
        payout_txid: event.data.txid,
        seller_sats: event.data.seller_sats,
        buyer_sats: event.data.buyer_sats,
        fee_sats: event.data.fee_sats,
      };
    }
    case 'EscrowCancelled':
    case 'EscrowExpired':
      return { status: 'cancelled', closed_at: at };
    case 'EscrowFrozen':
      return { status: 'frozen', status_before_freeze: row.status };
    case 'EscrowUnfrozen':
      return { status: statusBefore(row.status_before_freeze, event, row.id), status_before_freeze: null };
    default:
      return {};
  }
}

/** One row per escrow: its figures, status and parties as the API shows them. */
export const escrowsProjection = defineProjection({
  name: 'escrows',
  tables: [{ name: TABLE, key: ['id'] }],
  handles: [
    'EscrowCreated',
    'PaymentAddressAssigned',
    'PaymentMarked',
    'PaymentRejected',
    'PaymentVerified',
    'ReceiptConfirmed',
    'TermsAgreed',
    'TermsDeclined',
    'ShipmentRecorded',
    'GoodsReceived',
    'PayoutAddressSet',
    'EscrowReleased',
    'EscrowRefunded',
    'DisputeOpened',
    'DisputeResolved',
    'EscrowCancelled',
    'EscrowExpired',
    'EscrowFrozen',
    'EscrowUnfrozen',
    'PartyBound',
    'ProposalMade',
    'ProposalAccepted',
    'ProposalDeclined',
    'ProposalWithdrawn',
  ],
  async apply(store, event) {
    const id = idOfStream(event.stream_id);
    if (event.type === 'EscrowCreated') {
      const d = event.data;
      await store.put(TABLE, {
        id,
        product_service: d.product_service,
        description: d.description,
        amount_cents: d.amount_cents,
        fee_bps: d.fee_bps,
        fee_cents: d.fee_cents,
        total_cents: d.total_cents,
        rate_cents: d.rate_cents,
        amount_sats: d.amount_sats,
        status: 'pending_payment',
        status_before_freeze: null,
        status_before_dispute: null,
        buyer_email: d.buyer_email.toLowerCase(),
        seller_email: d.seller_email.toLowerCase(),
        creator_side: d.creator_side,
        created_by: d.created_by,
        buyer_id: d.creator_side === 'buyer' ? d.created_by : null,
        seller_id: d.creator_side === 'seller' ? d.created_by : null,
        assigned_address_id: null,
        assigned_address: null,
        deadline_days: d.deadline_days,
        payment_due_at: d.payment_due_at,
        payment_marked_at: null,
        buyer_confirmed_at: null,
        payout_address: null,
        refund_address: null,
        payout_address_held_until: null,
        refund_address_held_until: null,
        open_dispute_id: null,
        inspection_days: d.inspection_days ?? null,
        agreed_at: null,
        declined_at: null,
        decline_reason: null,
        shipped_at: null,
        shipment_method: null,
        shipment_carrier: null,
        shipment_tracking: null,
        shipment_note: null,
        received_at: null,
        inspection_ends_at: null,
        ...NO_OPEN_PROPOSAL,
        settlement_proposal_id: null,
        settlement_kind: null,
        settlement_seller_percent: null,
        payment_txid: null,
        payment_block_hash: null,
        payout_address_proven: false,
        refund_address_proven: false,
        payment_confirmations: null,
        payment_received_sats: null,
        payment_proof_sha256: null,
        payment_work_judged: null,
        payout_txid: null,
        seller_sats: null,
        buyer_sats: null,
        fee_sats: null,
        funded_at: null,
        closed_at: null,
        created_at: event.occurred_at,
        updated_at: event.occurred_at,
      });
      return;
    }
    await updateRow(store, TABLE, [id], (row) => stamped(changesFor(event, row), event.occurred_at), event, CAUSE);
  },
});
