import { randomBytes, randomUUID } from 'node:crypto';
import { API_TOKEN_PREFIX, createApiToken } from '../accounts/api-tokens.ts';
import { hashToken } from '../auth/tokens.ts';
import { newWebhookSecret } from '../webhooks/endpoints.ts';
import type { TestApp } from './test-app.ts';

/** Objects of the integration routes for one account: webhook endpoints (one to delete), a delivery, an API token row. */
export interface IntegrationObjects {
  webhook: string;
  doomedWebhook: string;
  delivery: number;
  apiToken: string;
}

/**
 * Writes, for the authorisation matrix, an endpoint to act on and one to delete, a queued delivery and an API token
 * row for an account (rows written directly: an admin cannot make an API token through the API).
 */
export async function integrationObjects(
  t: TestApp,
  userId: string,
  scope: 'admin' | 'user',
): Promise<IntegrationObjects> {
  const db = t.database.db;
  const endpoint = async () => {
    const id = randomUUID();
    await db
      .insertInto('webhook_endpoints')
      .values({
        id,
        scope,
        owner_id: userId,
        url: 'http://93.184.216.34/hook',
        event_types: JSON.stringify(['escrow.created']),
        secret_sealed: t.deps.secrets.seal(newWebhookSecret()),
      })
      .execute();
    return id;
  };
  const webhook = await endpoint();
  const doomedWebhook = await endpoint();
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: webhook,
      message_id: `msg_matrix_${randomUUID()}`,
      event_type: 'webhook.test',
      event_position: null,
      payload: '{}',
      next_attempt_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const apiToken = randomUUID();
  await db
    .insertInto('api_tokens')
    .values({
      id: apiToken,
      user_id: userId,
      name: 'matrix',
      token_hash: hashToken(`${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`),
      scopes: JSON.stringify(['read']),
    })
    .execute();
  return { webhook, doomedWebhook, delivery: Number(delivery.id), apiToken };
}

/** API tokens of one user for the token columns of the matrix: read only, read and write, and one revoked. */
export async function matrixApiTokens(t: TestApp, user: { id: string; role: string }) {
  const db = t.database.db;
  const read = await createApiToken(db, user, { name: 'read', scopes: ['read'] });
  const write = await createApiToken(db, user, { name: 'write', scopes: ['read', 'write'] });
  const revoked = await createApiToken(db, user, { name: 'revoked', scopes: ['read', 'write'] });
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: new Date().toISOString() })
    .where('id', '=', revoked.api_token.id)
    .execute();
  return { read: read.token, write: write.token, revoked: revoked.token };
}
