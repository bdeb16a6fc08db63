import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../contract/webhooks.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';

/** The few escrow events whose webhook name is not their own name in snake case. */
const RENAMED: Record<string, WebhookEventType> = {
  EscrowCreated: 'escrow.created',
  PaymentAddressAssigned: 'escrow.address_assigned',
  PaymentVerified: 'escrow.funded',
  EscrowReleased: 'escrow.released',
  EscrowRefunded: 'escrow.refunded',
  EscrowCancelled: 'escrow.cancelled',
  EscrowExpired: 'escrow.expired',
  EscrowFrozen: 'escrow.frozen',
  EscrowUnfrozen: 'escrow.unfrozen',
};

/**
 * The webhook `type` of an escrow event: `escrow.` and the event's name in snake case, `Escrow` dropped (an event
 * added later gets its name this way without a change here).
 */
export function webhookTypeOf(eventType: string): string {
  return (
    RENAMED[eventType] ??
    `escrow.${eventType
      .replace(/^Escrow/, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()}`
  );
}

export const isKnownWebhookType = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/**
 * The `webhook-id` of one event's delivery to one endpoint: derived from both, so a delivery queued twice (or sent
 * again after a crash) carries the same id and the receiver can drop the copy.
 */
export const messageIdFor = (endpointId: string, eventId: string) =>
  `msg_${createHash('sha256').update(`${endpointId}:${eventId}`).digest('base64url').slice(0, 32)}`;

/**
 * The JSON body of an escrow event's webhook, in the Standard Webhooks shape `{type, timestamp, data}`. `data` holds
 * the escrow's id, status and amounts, and the event's position and hash to check it against the log: never an
 * e-mail address, a note, a description or a secret. Receivers that need more fetch the escrow with a token.
 */
export function escrowEventBody(event: StoredEvent, escrow: Selectable<EscrowRow>): string {
  return JSON.stringify({
    type: webhookTypeOf(event.type),
    timestamp: event.occurred_at,
    data: {
      escrow_id: escrow.id,
      status: escrow.status,
      amount_cents: escrow.amount_cents,
      fee_cents: escrow.fee_cents,
      total_cents: escrow.total_cents,
      rate_cents: escrow.rate_cents,
      amount_sats: escrow.amount_sats,
      seller_sats: escrow.seller_sats,
      buyer_sats: escrow.buyer_sats,
      fee_sats: escrow.fee_sats,
      payment_txid: escrow.payment_txid,
      payout_txid: escrow.payout_txid,
      event: { type: event.type, position: event.position, hash: event.hash, occurred_at: event.occurred_at },
    },
  });
}

/** The body "Send test" delivers. */
export const testBody = (endpointId: string, at: Date) =>
  JSON.stringify({ type: 'webhook.test', timestamp: at.toISOString(), data: { endpoint_id: endpointId } });
