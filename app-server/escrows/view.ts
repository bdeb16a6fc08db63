import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import { notFound } from '../../domain/shared/errors.ts';
import { decimalSql, isoSql, jsonObjectSql } from '../db/json-view.ts';
import type { Database } from '../db/schema.ts';

/** The escrow's latest dispute as its parties see it (no account ids), or null. */
const LATEST_DISPUTE = `(SELECT row_to_json(d) FROM (SELECT d.id, d.reason, d.opened_by_side, ${isoSql('d.opened_at')} AS opened_at, d.status, d.outcome,
  d.resolution, d.seller_percent, ${isoSql('d.resolved_at')} AS resolved_at FROM disputes d WHERE d.escrow_id = e.id ORDER BY d.opened_at DESC LIMIT 1) d)`;

/** The escrow's settlement proposals (contract 7.5), oldest first; an empty list when it has none. */
const PROPOSALS = `COALESCE((SELECT json_agg(json_build_object('id', p.id, 'kind', p.kind, 'status', p.status,
  'proposed_by', p.proposed_by, 'seller_percent', p.seller_percent, 'days', p.days, 'note', p.note, 'seller_sats', p.seller_sats,
  'buyer_sats', p.buyer_sats, 'created_at', ${isoSql('p.created_at')}) ORDER BY p.position) FROM escrow_proposals p WHERE p.escrow_id = e.id), '[]'::json)`;

/** The answer's fields, in order, as SQL over the escrows row `e`: money as 2- and 8-decimal numbers next to satoshis. */
const FIELDS: Array<[name: string, expression: string]> = [
  ['id', 'e.id'],
  ['product_service', 'e.product_service'],
  ['description', 'e.description'],
  ['amount_usd', decimalSql('e.amount_cents', 2)],
  ['escrow_fee', decimalSql('e.fee_cents', 2)],
  ['total_usd', decimalSql('e.total_cents', 2)],
  ['fee_percentage', decimalSql('e.fee_bps', 2)],
  ['btc_usd_rate', decimalSql('e.rate_cents', 2)],
  ['amount_btc', decimalSql('e.amount_sats', 8)],
  ['amount_sats', 'e.amount_sats'],
  ['status', 'e.status'],
  ['buyer_email', 'e.buyer_email'],
  ['seller_email', 'e.seller_email'],
  ['buyer_id', 'e.buyer_id'],
  ['seller_id', 'e.seller_id'],
  ['created_by', 'e.created_by'],
  ['creator_side', 'e.creator_side'],
  ['assigned_address', 'e.assigned_address'],
  ['deadline_days', 'e.deadline_days'],
  ['payment_due_at', isoSql('e.payment_due_at')],
  ['payment_marked_at', isoSql('e.payment_marked_at')],
  ['buyer_confirmed_at', isoSql('e.buyer_confirmed_at')],
  ['payout_address', 'e.payout_address'],
  ['refund_address', 'e.refund_address'],
  ['payout_address_proven', 'e.payout_address_proven'],
  ['refund_address_proven', 'e.refund_address_proven'],
  ['payout_address_held_until', isoSql('e.payout_address_held_until')],
  ['refund_address_held_until', isoSql('e.refund_address_held_until')],
  ['payment_txid', 'e.payment_txid'],
  [
    'payment_proof',
    `CASE WHEN e.payment_proof_sha256 IS NULL THEN NULL ELSE json_build_object('block_hash', e.payment_block_hash, 'confirmations', e.payment_confirmations,
      'received_sats', e.payment_received_sats, 'proof_sha256', e.payment_proof_sha256, 'work_judged', e.payment_work_judged) END`,
  ],
  ['payout_txid', 'e.payout_txid'],
  ['seller_sats', 'e.seller_sats'],
  ['buyer_sats', 'e.buyer_sats'],
  ['fee_sats', 'e.fee_sats'],
  ['funded_at', isoSql('e.funded_at')],
  [
    'payment_rejected_at',
    `(SELECT ${isoSql('max(m.decided_at)')} FROM payment_marks m WHERE m.escrow_id = e.id AND m.status = 'rejected')`,
  ],
  ['dispute', LATEST_DISPUTE],
  ['inspection_days', 'e.inspection_days'],
  ['agreed_at', isoSql('e.agreed_at')],
  ['declined_at', isoSql('e.declined_at')],
  ['decline_reason', 'e.decline_reason'],
  ['shipped_at', isoSql('e.shipped_at')],
  [
    'shipment',
    `CASE WHEN e.shipment_method IS NULL THEN NULL ELSE json_build_object('method', e.shipment_method,
      'carrier', e.shipment_carrier, 'tracking', e.shipment_tracking, 'note', e.shipment_note) END`,
  ],
  ['received_at', isoSql('e.received_at')],
  ['inspection_ends_at', isoSql('e.inspection_ends_at')],
  ['proposals', PROPOSALS],
  ['created_at', isoSql('e.created_at')],
  ['updated_at', isoSql('e.updated_at')],
];

/**
 * An escrow as the API shows it, as JSON text the database writes (the dashboard's list is the most read answer: no
 * row is parsed into objects and serialised again), for the escrows row aliased `e` in the query. The caller's side
 * is added by withSide.
 */
export const ESCROW_VIEW_SQL = jsonObjectSql(FIELDS);

/** The view as a column of a Kysely query whose escrows table is aliased `e`. */
export const escrowViewJson = (): RawBuilder<string> => sql<string>`${sql.raw(ESCROW_VIEW_SQL)}`;

/** One escrow's view (JSON text) as its read-model row is now; 404 when there is none. */
export async function escrowView(db: Kysely<Database>, id: string): Promise<string> {
  const row = await db
    .selectFrom('escrows as e')
    .select(escrowViewJson().as('view'))
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Escrow not found');
  return row.view;
}

/** What the answer adds to the view for the caller: what they may do now and where the escrow stands in the queues. */
export interface Acting {
  actions: readonly string[];
  ready_to_release: boolean;
  refund_due: boolean;
}

/** The escrow's JSON text with the side the caller stands on in it and what they may do on it now. */
export const withSide = (view: string, side: EscrowActor, acting: Acting) =>
  `{"side":${JSON.stringify(side)},"allowed_actions":${JSON.stringify(acting.actions)},` +
  `"ready_to_release":${acting.ready_to_release},"refund_due":${acting.refund_due},${view.slice(1)}`;
