import { type Transaction, sql } from 'kysely';
import { escrowEventSchemas } from '../../domain/escrow/events.ts';
import type { EscrowEvent } from '../../domain/escrow/events.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import { escrowOfEvent } from '../escrows/escrow-of-event.ts';
import type { AfterAppend } from '../event-store/event-store.ts';
import { escrowEventBody, messageIdFor, webhookTypeOf } from './payload.ts';

interface LiveEndpoint {
  id: string;
  scope: 'admin' | 'user';
  owner_id: string;
  event_types: string[];
}

/**
 * Endpoints that may receive events now: enabled, and owned by an account that is not suspended (and, for an admin
 * endpoint, is still an admin). Deliveries already queued stay queued when that changes; new ones are not made.
 */
const liveEndpoints = (trx: Transaction<Database>) =>
  trx
    .selectFrom('webhook_endpoints')
    .innerJoin('users', 'users.id', 'webhook_endpoints.owner_id')
    .select([
      'webhook_endpoints.id',
      'webhook_endpoints.scope',
      'webhook_endpoints.owner_id',
      'webhook_endpoints.event_types',
    ])
    .where('webhook_endpoints.disabled_at', 'is', null)
    .where('users.is_frozen', '=', false)
    .where((eb) => eb.or([eb('webhook_endpoints.scope', '=', 'user'), eb('users.role', '=', 'admin')]))
    .execute() as Promise<LiveEndpoint[]>;

/**
 * Queues a delivery of each escrow event to every endpoint that asked for its type and may see the escrow (admin
 * endpoints every escrow, a user's endpoints the escrows the user is bound to as buyer or seller), inside the
 * transaction that appends the events: a delivery exists exactly when its event was committed, as queued mail does.
 */
export async function queueWebhookDeliveries(trx: Transaction<Database>, stored: StoredEvent[]): Promise<void> {
  const escrowEvents = stored.filter((e) => e.stream_type === 'escrow');
  if (escrowEvents.length === 0) return;
  const endpoints = await liveEndpoints(trx);
  if (endpoints.length === 0) return;
  const rows = [];
  for (const event of escrowEvents) {
    const type = webhookTypeOf(event.type);
    const interested = endpoints.filter((e) => e.event_types.includes(type));
    if (interested.length === 0) continue;
    const escrow = await escrowOfEvent(trx, event);
    if (!escrow) continue;
    const payload = escrowEventBody(event, escrow);
    for (const endpoint of interested) {
      if (endpoint.scope === 'user' && endpoint.owner_id !== escrow.buyer_id && endpoint.owner_id !== escrow.seller_id)
        continue;
      rows.push({
        endpoint_id: endpoint.id,
        message_id: messageIdFor(endpoint.id, event.event_id),
        event_type: type,
        event_position: event.position,
        payload,
      });
    }
  }
  if (rows.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(rows.map((r) => ({ ...r, next_attempt_at: sql<string>`now()` as unknown as string })))
    .onConflict((oc) => oc.columns(['endpoint_id', 'message_id']).doNothing())
    .execute();
}

/** The effect registered with the event store: every escrow event may be announced. */
export const webhookEffect: AfterAppend = {
  name: 'webhook deliveries',
  handles: Object.keys(escrowEventSchemas) as EscrowEvent['type'][],
  run: queueWebhookDeliveries,
};
