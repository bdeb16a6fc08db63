import type { Selectable } from 'kysely';
import { allowedActions, readyToRelease, refundDue } from '../../domain/escrow/allowed-actions.ts';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import { type EscrowContext, escrowMachine } from '../../domain/escrow/machine.ts';
import type { EscrowState, EscrowStatus } from '../../domain/escrow/state.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';

/** The escrows row's columns the machine's context is made of (select them beside the answer's view). */
export const ESCROW_STATE_COLUMNS = [
  'e.id',
  'e.status',
  'e.status_before_dispute',
  'e.created_by',
  'e.creator_side',
  'e.buyer_id',
  'e.seller_id',
  'e.amount_sats',
  'e.fee_cents',
  'e.total_cents',
  'e.payment_due_at',
  'e.assigned_address_id',
  'e.assigned_address',
  'e.payment_marked_at',
  'e.buyer_confirmed_at',
  'e.payout_address',
  'e.refund_address',
  'e.payout_address_held_until',
  'e.refund_address_held_until',
  'e.open_dispute_id',
  'e.inspection_days',
  'e.agreed_at',
  'e.declined_at',
  'e.shipped_at',
  'e.received_at',
  'e.inspection_ends_at',
  'e.open_proposal_id',
  'e.open_proposal_kind',
  'e.open_proposal_side',
  'e.open_proposal_seller_percent',
  'e.open_proposal_days',
  'e.settlement_proposal_id',
  'e.settlement_kind',
  'e.settlement_seller_percent',
] as const;

type StateColumn = (typeof ESCROW_STATE_COLUMNS)[number] extends `e.${infer C}` ? C : never;
export type EscrowStateRow = Pick<Selectable<EscrowRow>, StateColumn>;

const iso = (time: Date | string | null) => (time === null ? null : new Date(time).toISOString());
const ACTIVE = new Set<string>(['pending_payment', 'funded', 'disputed']);

/**
 * The escrow's state as the machine would have folded it, from its read-model row (written by the projection of the
 * same events): lists answer `allowed_actions` for hundreds of escrows without reading their streams.
 */
export function escrowStateOfRow(row: EscrowStateRow): EscrowState {
  const context: EscrowContext = {
    escrow_id: row.id,
    created_by: row.created_by,
    creator_side: row.creator_side,
    amount_sats: Number(row.amount_sats),
    fee_cents: Number(row.fee_cents),
    total_cents: Number(row.total_cents),
    payment_due_at: iso(row.payment_due_at),
    address_id: row.assigned_address_id,
    address: row.assigned_address,
    payment_marked_at: iso(row.payment_marked_at),
    buyer_confirmed_at: iso(row.buyer_confirmed_at),
    payout_address: row.payout_address,
    refund_address: row.refund_address,
    payout_address_held_until: iso(row.payout_address_held_until),
    refund_address_held_until: iso(row.refund_address_held_until),
    dispute_id: row.open_dispute_id,
    status_before_dispute: row.status_before_dispute as EscrowContext['status_before_dispute'],
    inspection_days: row.inspection_days,
    agreed_at: iso(row.agreed_at),
    declined_at: iso(row.declined_at),
    shipped_at: iso(row.shipped_at),
    received_at: iso(row.received_at),
    inspection_ends_at: iso(row.inspection_ends_at),
    open_proposal_id: row.open_proposal_id,
    open_proposal_kind: row.open_proposal_kind,
    open_proposal_side: row.open_proposal_side,
    open_proposal_seller_percent: row.open_proposal_seller_percent,
    open_proposal_days: row.open_proposal_days,
    settlement_proposal_id: row.settlement_proposal_id,
    settlement_kind: row.settlement_kind,
    settlement_seller_percent: row.settlement_seller_percent,
  };
  const value = ACTIVE.has(row.status) ? { active: row.status } : row.status;
  const snapshot = escrowMachine.resolveState({ value, context: { deal: context } });
  const parties = { buyer: row.buyer_id, seller: row.seller_id };
  return { snapshot, status: row.status as EscrowStatus, context, parties };
}

/** What this user, on this side, may do on the escrow of this row now, and where it stands in the admins' queues. */
export const actingOnRow = (row: EscrowStateRow, side: EscrowActor, now = new Date().toISOString()) =>
  actingOn(escrowStateOfRow(row), side, now);

/** What this user, on this side, may do on the escrow in this state now, and where it stands in the admins' queues. */
export function actingOn(state: EscrowState, side: EscrowActor, now = new Date().toISOString()) {
  return {
    actions: allowedActions(state, side, now),
    ready_to_release: readyToRelease(state, now),
    refund_due: refundDue(state),
  };
}
