import { z } from 'zod';
import { totpCodeField } from './input-fields.ts';

/** Webhooks in the Standard Webhooks format (/api/admin/webhooks for every escrow, /api/webhooks for one's own). */

const isoTime = z.string().describe('ISO 8601 time, UTC');

/** The `type` of each escrow event as a webhook names it; `webhook.test` is only ever sent by "Send test". */
export const WEBHOOK_EVENT_TYPES = [
  'escrow.created',
  'escrow.address_assigned',
  'escrow.payment_marked',
  'escrow.payment_rejected',
  'escrow.funded',
  'escrow.receipt_confirmed',
  'escrow.payout_address_set',
  'escrow.released',
  'escrow.refunded',
  'escrow.dispute_opened',
  'escrow.dispute_resolved',
  'escrow.cancelled',
  'escrow.expired',
  'escrow.frozen',
  'escrow.unfrozen',
  'escrow.party_bound',
  'escrow.message_posted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/** Endpoints one owner (or all admins together) may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** POST /api/webhooks and /api/admin/webhooks (JSON). */
export const createWebhookSchema = z.object({
  url: z
    .string('url is required')
    .trim()
    .min(1, 'url is required')
    .max(2000, 'url must be at most 2000 characters')
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'url must be an http:// or https:// URL'),
  event_types: z
    .array(
      z.enum(WEBHOOK_EVENT_TYPES, `event_types must each be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`),
      'event_types must be a list of event types',
    )
    .min(1, 'event_types must name at least one event type')
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((types) => [...new Set(types)]),
  totp_code: totpCodeField.describe('A fresh 2FA code: admins creating an endpoint (an admin power)'),
});
export type CreateWebhook = z.infer<typeof createWebhookSchema>;

export const webhookIdParam = z.object({ id: z.uuid('id must be a webhook endpoint id') });
/** A delivery's number; anything else names no delivery (404, as for one that is not yours). */
export const deliveryIdParam = z.object({ id: z.string().max(64, 'id must be a delivery number') });

export const webhookAttemptSchema = z.strictObject({
  attempted_at: isoTime,
  status_code: z
    .number()
    .int()
    .nullable()
    .describe("The receiver's HTTP status; null when no answer came (refused, timed out)"),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const webhookDeliverySchema = z.strictObject({
  id: z.number().int(),
  webhook_id: z.string().describe('The `webhook-id` header: the same on every attempt and redelivery'),
  event_type: z.string(),
  event_position: z.number().int().nullable().describe("The event's position in the log (null for a test)"),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: isoTime,
  delivered_at: isoTime.nullable(),
  next_attempt_at: isoTime.nullable().describe('When the next attempt is due (null once delivered or given up)'),
  log: z.array(webhookAttemptSchema).describe('Every attempt, newest first'),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookEndpointSchema = z.strictObject({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  created_at: isoTime,
  disabled_at: isoTime.nullable(),
  last_deliveries: z.array(webhookDeliverySchema).describe('The latest deliveries, newest first'),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointsSchema = z.array(webhookEndpointSchema);

/** The answer to a creation: the endpoint, and its signing secret, shown this once. */
export const createdWebhookSchema = z.strictObject({
  endpoint: webhookEndpointSchema,
  secret: z.string().describe('The `whsec_` signing secret: shown once, verify deliveries with it'),
});

export const webhookDeliveriesSchema = z.array(webhookDeliverySchema);
