import { randomBytes, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import {
  type CreateWebhook,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_TEST_TYPE,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../contract/webhooks.ts';
import { conflict, notFound } from '../../domain/shared/errors.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { Database } from '../db/schema.ts';
import { checkDestination } from './destination.ts';
import { MAX_WEBHOOK_ATTEMPTS } from './deliver.ts';
import { testBody } from './payload.ts';

/** Whose endpoints a call manages: the admins' (every escrow; any admin manages them) or one user's (their escrows). */
export type WebhookOwner = { scope: 'admin'; userId: string } | { scope: 'user'; userId: string };

const LAST_DELIVERIES = 5;
const LISTED_DELIVERIES = 50;

/** A fresh Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const owned = (db: Kysely<Database>, owner: WebhookOwner) => {
  const query = db.selectFrom('webhook_endpoints').where('scope', '=', owner.scope);
  return owner.scope === 'user' ? query.where('owner_id', '=', owner.userId) : query;
};

async function ownedEndpoint(db: Kysely<Database>, owner: WebhookOwner, id: string) {
  const found = await owned(db, owner).selectAll().where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound('Webhook endpoint not found');
  return found;
}

/** Makes an endpoint; its secret is returned this once and kept only sealed. */
export async function createWebhookEndpoint(
  deps: { db: Kysely<Database>; secrets: SecretBox; allowPrivate: boolean },
  owner: WebhookOwner,
  input: Pick<CreateWebhook, 'url' | 'event_types'>,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkDestination(input.url, deps.allowPrivate);
  const count = await owned(deps.db, owner)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_WEBHOOK_ENDPOINTS)
    throw conflict(`At most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
  const secret = newWebhookSecret();
  const id = randomUUID();
  await deps.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      scope: owner.scope,
      owner_id: owner.userId,
      url: url.toString(),
      event_types: JSON.stringify(input.event_types),
      secret_sealed: deps.secrets.seal(secret),
    })
    .execute();
  const [endpoint] = await listWebhookEndpoints(deps.db, owner, id);
  return { endpoint: endpoint!, secret };
}

/** The endpoints of an owner (or one of them), each with its latest deliveries and their attempts. */
export async function listWebhookEndpoints(
  db: Kysely<Database>,
  owner: WebhookOwner,
  onlyId?: string,
): Promise<WebhookEndpoint[]> {
  let query = owned(db, owner)
    .select(['id', 'url', 'event_types', 'created_at', 'disabled_at'])
    .orderBy('created_at', 'desc');
  if (onlyId) query = query.where('id', '=', onlyId);
  const endpoints = await query.execute();
  const result: WebhookEndpoint[] = [];
  for (const e of endpoints) {
    result.push({
      id: e.id,
      url: e.url,
      event_types: e.event_types,
      enabled: e.disabled_at === null,
      created_at: e.created_at.toISOString(),
      disabled_at: e.disabled_at?.toISOString() ?? null,
      last_deliveries: await deliveriesOf(db, e.id, LAST_DELIVERIES),
    });
  }
  return result;
}

/** The delivery log of one endpoint, newest first. */
export async function webhookDeliveries(
  db: Kysely<Database>,
  owner: WebhookOwner,
  id: string,
): Promise<WebhookDelivery[]> {
  await ownedEndpoint(db, owner, id);
  return deliveriesOf(db, id, LISTED_DELIVERIES);
}

async function deliveriesOf(db: Kysely<Database>, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => {
    const status = r.delivered_at ? 'delivered' : r.attempts >= MAX_WEBHOOK_ATTEMPTS ? 'failed' : 'pending';
    return {
      id: Number(r.id),
      webhook_id: r.message_id,
      event_type: r.event_type,
      event_position: r.event_position === null ? null : Number(r.event_position),
      status,
      attempts: r.attempts,
      last_status: r.last_status,
      last_error: r.last_error,
      created_at: r.created_at.toISOString(),
      delivered_at: r.delivered_at?.toISOString() ?? null,
      next_attempt_at: status === 'pending' ? r.next_attempt_at.toISOString() : null,
      log: attempts
        .filter((a) => Number(a.delivery_id) === Number(r.id))
        .slice(0, 20)
        .map((a) => ({
          attempted_at: a.attempted_at.toISOString(),
          status_code: a.status_code,
          error: a.error,
          duration_ms: a.duration_ms,
        })),
    };
  });
}

/** Stops (or resumes) new deliveries to an endpoint; queued ones wait while it is disabled. */
export async function setWebhookEnabled(
  db: Kysely<Database>,
  owner: WebhookOwner,
  id: string,
  enabled: boolean,
): Promise<WebhookEndpoint> {
  await ownedEndpoint(db, owner, id);
  await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: enabled ? null : (sql<string>`coalesce(disabled_at, now())` as unknown as string) })
    .where('id', '=', id)
    .execute();
  const [endpoint] = await listWebhookEndpoints(db, owner, id);
  return endpoint!;
}

/** Deletes an endpoint, its secret and its delivery log. */
export async function deleteWebhookEndpoint(db: Kysely<Database>, owner: WebhookOwner, id: string): Promise<void> {
  await ownedEndpoint(db, owner, id);
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** Queues a `webhook.test` message to the endpoint (delivered by the loop like any other, within seconds). */
export async function sendTestWebhook(
  db: Kysely<Database>,
  owner: WebhookOwner,
  id: string,
  now = new Date(),
): Promise<WebhookDelivery> {
  const endpoint = await ownedEndpoint(db, owner, id);
  if (endpoint.disabled_at) throw conflict('The endpoint is disabled: enable it to send a test');
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: id,
      message_id: `msg_test_${randomUUID().replaceAll('-', '')}`,
      event_type: WEBHOOK_TEST_TYPE,
      event_position: null,
      payload: testBody(id, now),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await deliveriesOf(db, id, LISTED_DELIVERIES)).find((d) => d.id === Number(inserted.id))!;
}

/**
 * Sends a delivery again, now, with the same `webhook-id` and body (a receiver that lost it, or was down past the
 * last retry); its attempts count starts again.
 */
export async function redeliverWebhook(
  db: Kysely<Database>,
  owner: WebhookOwner,
  rawId: string,
): Promise<WebhookDelivery> {
  if (!/^[1-9]\d{0,14}$/.test(rawId)) throw notFound('Webhook delivery not found');
  const deliveryId = Number(rawId);
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.endpoint_id',
      'webhook_endpoints.scope',
      'webhook_endpoints.owner_id',
      'webhook_endpoints.disabled_at',
    ])
    .where('webhook_deliveries.id', '=', deliveryId)
    .executeTakeFirst();
  if (!delivery || delivery.scope !== owner.scope || (owner.scope === 'user' && delivery.owner_id !== owner.userId))
    throw notFound('Webhook delivery not found');
  if (delivery.disabled_at) throw conflict('The endpoint is disabled: enable it to redeliver');
  await db
    .updateTable('webhook_deliveries')
    .set({ attempts: 0, delivered_at: null, next_attempt_at: sql<string>`now()` as unknown as string })
    .where('id', '=', deliveryId)
    .execute();
  return (await deliveriesOf(db, delivery.endpoint_id, LISTED_DELIVERIES)).find((d) => d.id === deliveryId)!;
}
