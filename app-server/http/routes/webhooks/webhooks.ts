import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  createdWebhookSchema,
  createWebhookSchema,
  deliveryIdParam,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointsSchema,
  webhookIdParam,
} from '../../../../contract/webhooks.ts';
import type { AppDeps } from '../../../app-deps.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  redeliverWebhook,
  sendTestWebhook,
  setWebhookEnabled,
  webhookDeliveries,
  type WebhookOwner,
} from '../../../webhooks/endpoints.ts';
import { jsonAnswer, jsonBody } from '../../bodies.ts';
import type { AppEnv } from '../../env.ts';
import { currentUser, requireRole, requireUser } from '../../middleware/authenticate.ts';
import { route } from '../../route.ts';
import { ADMIN_POWER, notAPower, type SecondFactorNeed } from '../../middleware/admin-step-up.ts';

const message = z.object({ detail: z.string() });

/**
 * Webhook endpoints, one shape for both owners: /api/admin/webhooks (admins: every escrow's events) and /api/webhooks
 * (a signed-in user: the events of the escrows they are party to).
 */
export function webhookRoutes(deps: AppDeps, scope: 'admin' | 'user') {
  const { db } = deps.database;
  const app = new OpenAPIHono<AppEnv>();
  const gate = { middleware: [scope === 'admin' ? requireRole('admin') : requireUser()] };
  // Making or re-enabling an endpoint starts every escrow's events flowing out: for admins, a power. A user's own
  // endpoints carry only their escrows' events and need no step-up.
  const asAdmin = (need: SecondFactorNeed) => (scope === 'admin' ? need : undefined);
  const whose = scope === 'admin' ? "the admins'" : 'your';
  const owner = (c: Parameters<typeof currentUser>[0]): WebhookOwner => ({ scope, userId: currentUser(c).id });

  app.openapi(
    route('get', '/', `List ${whose} webhook endpoints with their latest deliveries`, gate, {
      200: jsonAnswer('Endpoints, newest first', webhookEndpointsSchema),
    }),
    async (c) => c.json(await listWebhookEndpoints(db, owner(c)), 200),
  );

  app.openapi(
    route(
      'post',
      '/',
      'Create a webhook endpoint: its whsec_ signing secret is in this answer only',
      { ...gate, request: { body: jsonBody(createWebhookSchema) } },
      {
        201: jsonAnswer('The endpoint and its secret', createdWebhookSchema),
      },
      asAdmin(ADMIN_POWER),
    ),
    async (c) => {
      const created = await createWebhookEndpoint(
        { db, secrets: deps.secrets, allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE },
        owner(c),
        c.req.valid('json'),
      );
      return c.json(created, 201);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/disable',
      'Stop deliveries to an endpoint (queued ones wait)',
      { ...gate, request: { params: webhookIdParam } },
      { 200: jsonAnswer('The endpoint', webhookEndpointSchema) },
      asAdmin(notAPower('stops an endpoint: starts no flow of escrow events')),
    ),
    async (c) => c.json(await setWebhookEnabled(db, owner(c), c.req.valid('param').id, false), 200),
  );

  app.openapi(
    route(
      'post',
      '/{id}/enable',
      'Resume deliveries to an endpoint',
      { ...gate, request: { params: webhookIdParam } },
      { 200: jsonAnswer('The endpoint', webhookEndpointSchema) },
      asAdmin(ADMIN_POWER),
    ),
    async (c) => c.json(await setWebhookEnabled(db, owner(c), c.req.valid('param').id, true), 200),
  );

  app.openapi(
    route(
      'delete',
      '/{id}',
      'Delete an endpoint with its secret and delivery log',
      { ...gate, request: { params: webhookIdParam } },
      { 200: jsonAnswer('Deleted', message) },
      asAdmin(notAPower('removes an endpoint: stops the flow, sends nothing new')),
    ),
    async (c) => {
      await deleteWebhookEndpoint(db, owner(c), c.req.valid('param').id);
      return c.json({ detail: 'Webhook endpoint deleted' }, 200);
    },
  );

  app.openapi(
    route(
      'post',
      '/{id}/test',
      'Send a webhook.test message to an endpoint (queued; delivered within seconds)',
      { ...gate, request: { params: webhookIdParam } },
      {
        202: jsonAnswer('The queued delivery', webhookDeliverySchema),
      },
      asAdmin(notAPower('sends an endpoint a test message: starts no flow of escrow events')),
    ),
    async (c) => c.json(await sendTestWebhook(db, owner(c), c.req.valid('param').id), 202),
  );

  app.openapi(
    route(
      'get',
      '/{id}/deliveries',
      'The delivery log of an endpoint: every delivery and attempt with its status code',
      { ...gate, request: { params: webhookIdParam } },
      {
        200: jsonAnswer('Deliveries, newest first', webhookDeliveriesSchema),
      },
    ),
    async (c) => c.json(await webhookDeliveries(db, owner(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    route(
      'post',
      '/deliveries/{id}/redeliver',
      'Send a delivery again now, with the same webhook-id and body',
      { ...gate, request: { params: deliveryIdParam } },
      {
        202: jsonAnswer('The delivery, due again', webhookDeliverySchema),
      },
      asAdmin(notAPower('repeats a delivery an approved endpoint already had')),
    ),
    async (c) => c.json(await redeliverWebhook(db, owner(c), c.req.valid('param').id), 202),
  );

  return app;
}
