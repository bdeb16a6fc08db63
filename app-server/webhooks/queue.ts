import type { Selectable } from 'kysely';
import { escrowEventSchemas } from '../../domain/escrow/events.ts';
import type { EscrowEvent } from '../../domain/escrow/events.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import { idOfStream } from '../../projections/stream-ids.ts';
import { APPLIED, type SelectedInsert } from '../event-store/append-statement.ts';
import type { AfterAppend, RowAfter } from '../event-store/event-store.ts';
import { escrowEventBody, webhookTypeOf } from './payload.ts';

/**
 * One delivery per announced event and endpoint that may receive it now: enabled, owned by an account that is not
 * suspended, that asked for the event's type, and either an admin's (every escrow) or a party's (the escrows it is
 * bound to as buyer or seller). Deliveries already queued stay queued when that changes; new ones are not made.
 * The `webhook-id` is `messageIdFor` (payload.ts) in SQL: derived from the endpoint and the event, so a delivery
 * queued twice carries the same id and is kept once.
 */
const QUEUE_DELIVERIES = `INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, event_position, payload)
  SELECT ep.id, 'msg_' || left(translate(encode(sha256(convert_to(ep.id::text || ':' || d.event_id, 'UTF8')), 'base64'), '+/', '-_'), 32),
    d.event_type, d.event_position, d.payload
  FROM jsonb_to_recordset($rows::jsonb)
    AS d(event_id text, event_type text, event_position bigint, payload text, buyer_id uuid, seller_id uuid)
  JOIN webhook_endpoints ep ON ep.disabled_at IS NULL AND ep.event_types @> jsonb_build_array(d.event_type)
  JOIN users u ON u.id = ep.owner_id AND NOT u.is_frozen
  WHERE ${APPLIED}
    AND ((ep.scope = 'admin' AND u.role = 'admin') OR (ep.scope = 'user' AND ep.owner_id IN (d.buyer_id, d.seller_id)))
  ORDER BY d.event_position, ep.created_at, ep.id
  ON CONFLICT (endpoint_id, message_id) DO NOTHING`;

/**
 * Queues a delivery of each escrow event to every endpoint that may receive it (see QUEUE_DELIVERIES), in the
 * append's own statement: a delivery exists exactly when its event was committed, as queued mail does. The body is
 * built from the escrow's row as the append's events left it.
 */
export async function webhookDeliveries(stored: StoredEvent[], rowAfter: RowAfter): Promise<SelectedInsert[]> {
  const rows = [];
  for (const event of stored) {
    if (event.stream_type !== 'escrow') continue;
    const escrow = (await rowAfter('escrows', [idOfStream(event.stream_id)])) as Selectable<EscrowRow> | undefined;
    if (!escrow) continue;
    rows.push({
      event_id: event.event_id,
      event_type: webhookTypeOf(event.type),
      event_position: event.position,
      payload: escrowEventBody(event, escrow),
      buyer_id: escrow.buyer_id ?? null,
      seller_id: escrow.seller_id ?? null,
    });
  }
  return [{ shape: 'webhook deliveries', sql: QUEUE_DELIVERIES, rows }];
}

/** The effect registered with the event store: every escrow event may be announced. */
export const webhookEffect: AfterAppend = {
  name: 'webhook deliveries',
  handles: Object.keys(escrowEventSchemas) as EscrowEvent['type'][],
  insert: webhookDeliveries,
};
