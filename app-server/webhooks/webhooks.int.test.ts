import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, json, signedInUser } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { openReceiver } from '../testing/webhook-receiver.ts';
import { CLAIM_LEASE_SECONDS, claimDueDelivery, deliverDueWebhooks } from './deliver.ts';
import { messageIdFor } from './payload.ts';
import { sendWebhook } from './send.ts';

/** Receivers bind on 127.0.0.1 at the first free port of these (two backends' runs may overlap). */
const PORTS = [3152, 3153, 3154, 3155, 3156, 3157];

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const minutes = (n: number) => () => new Date(Date.now() + n * 60_000);
const deliver = (now?: () => Date) =>
  deliverDueWebhooks(
    { db: t.database.db, secrets: t.deps.secrets, logger: t.deps.logger, allowPrivate: true },
    { now },
  );

async function createEndpoint(path: string, token: string, url: string, eventTypes: string[]) {
  const res = await t.app.request(path, json({ url, event_types: eventTypes }, token));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { endpoint: { id: string }; secret: string };
}

const ALL = [
  'escrow.created',
  'escrow.address_assigned',
  'escrow.payment_marked',
  'escrow.funded',
  'escrow.released',
  'escrow.cancelled',
];

describe('webhook deliveries', () => {
  it('signs every delivery for Webhook.verify, retries after a 500, and after a crash sends again with the same webhook-id', async () => {
    const receiver = await openReceiver(PORTS, (n) => (n === 0 ? 500 : 200));
    try {
      const { admin, buyer } = await openMarket(t, [freshAddress()]);
      const outsider = await signedInUser(t, 'olga');
      const adminHook = await createEndpoint('/api/admin/webhooks', admin.token, `${receiver.url}/admin`, ALL);
      const annHook = await createEndpoint('/api/webhooks', buyer.token, `${receiver.url}/ann`, [
        'escrow.created',
        'escrow.cancelled',
      ]);
      const olgaHook = await createEndpoint('/api/webhooks', outsider.token, `${receiver.url}/olga`, [
        'escrow.created',
      ]);
      expect(adminHook.secret).toMatch(/^whsec_/);

      const created = await t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Camera',
            description: 'Private notes here',
            amount_usd: '1000.00',
            seller_email: 'sam@example.com',
          },
          buyer.token,
        ),
      );
      expect(created.status).toBe(201);
      const escrowId = ((await created.json()) as { id: string }).id;
      expect((await t.app.request(`/api/escrows/${escrowId}/cancel`, { ...bearer(buyer.token, 'POST') })).status).toBe(
        200,
      );

      // Queued with the events: admin gets created, address_assigned, cancelled; ann created and cancelled; olga nothing.
      const queued = await t.database.db
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'event_type'])
        .orderBy('id')
        .execute();
      expect(queued.filter((q) => q.endpoint_id === olgaHook.endpoint.id)).toEqual([]);
      expect(queued.filter((q) => q.endpoint_id === annHook.endpoint.id).map((q) => q.event_type)).toEqual([
        'escrow.created',
        'escrow.cancelled',
      ]);
      expect(queued.filter((q) => q.endpoint_id === adminHook.endpoint.id).map((q) => q.event_type)).toEqual([
        'escrow.created',
        'escrow.address_assigned',
        'escrow.cancelled',
      ]);

      // Each webhook-id, made by the append's statement, is the one messageIdFor derives from endpoint and event.
      const ids = await t.database.db
        .selectFrom('webhook_deliveries')
        .innerJoin('events', 'events.position', 'webhook_deliveries.event_position')
        .select(['webhook_deliveries.endpoint_id', 'webhook_deliveries.message_id', 'events.event_id'])
        .execute();
      expect(ids).toHaveLength(5);
      for (const d of ids) expect(d.message_id).toBe(messageIdFor(d.endpoint_id, d.event_id));

      // The first attempt gets a 500: retried once its backoff (one minute) has passed, not before.
      expect(await deliver()).toEqual({ delivered: 4, failed: 1 });
      expect(await deliver()).toEqual({ delivered: 0, failed: 0 });
      expect(await deliver(minutes(1.5))).toEqual({ delivered: 1, failed: 0 });
      const failedFirst = receiver.received[0]!;
      expect(
        receiver.received
          .filter((r) => r.headers['webhook-id'] === failedFirst.headers['webhook-id'])
          .map((r) => r.status),
      ).toEqual([500, 200]);

      // A crash between sending and recording: the message went out, nothing says so. After the lease it goes again.
      await t.database.db
        .updateTable('webhook_deliveries')
        .set({ delivered_at: null, attempts: 0, next_attempt_at: new Date().toISOString() })
        .where('endpoint_id', '=', annHook.endpoint.id)
        .execute();
      const claimed = (await claimDueDelivery({ db: t.database.db, secrets: t.deps.secrets }))!;
      await sendWebhook(claimed, new Date(), { allowPrivate: true }); // ...and the process dies here
      expect(await deliver(minutes(0.5))).toEqual({ delivered: 1, failed: 0 }); // the other one; the claimed one is leased
      expect(await deliver(() => new Date(Date.now() + (CLAIM_LEASE_SECONDS + 5) * 1000))).toEqual({
        delivered: 1,
        failed: 0,
      });

      // Every message verifies with its endpoint's secret; each event type arrives once per endpoint, a copy only
      // with the same webhook-id; the bodies hold no e-mail address and no note.
      const secrets: Record<string, string> = { '/admin': adminHook.secret, '/ann': annHook.secret };
      const idsByType = new Map<string, Set<string>>();
      for (const r of receiver.received) {
        const verified = new Webhook(secrets[r.path]!).verify(r.body, r.headers) as {
          type: string;
          data: Record<string, unknown>;
        };
        expect(verified.data.escrow_id).toBe(escrowId);
        expect(r.body).not.toMatch(/@|Private notes|Camera/);
        const key = `${r.path} ${verified.type}`;
        idsByType.set(key, (idsByType.get(key) ?? new Set()).add(r.headers['webhook-id']!));
      }
      expect([...idsByType.keys()].sort()).toEqual([
        '/admin escrow.address_assigned',
        '/admin escrow.cancelled',
        '/admin escrow.created',
        '/ann escrow.cancelled',
        '/ann escrow.created',
      ]);
      expect([...idsByType.values()].every((ids) => ids.size === 1)).toBe(true);
      expect(() =>
        new Webhook(annHook.secret).verify(
          receiver.received[0]!.body.replace('escrow', 'escrox'),
          receiver.received[0]!.headers,
        ),
      ).toThrow();

      // The delivery log, through the API, with the status codes.
      const log = (await (
        await t.app.request(`/api/admin/webhooks/${adminHook.endpoint.id}/deliveries`, bearer(admin.token))
      ).json()) as Array<{ id: number; status: string; log: Array<{ status_code: number }> }>;
      expect(log.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(log.flatMap((d) => d.log.map((a) => a.status_code)).sort()).toEqual([200, 200, 200, 500]);
    } finally {
      await receiver.close();
    }
  });
});

describe('who gets a delivery', () => {
  it('never a disabled endpoint, a suspended owner, or an admin endpoint whose owner is no longer an admin', async () => {
    const { admin, buyer } = await openMarket(t);
    const adminHook = await createEndpoint('/api/admin/webhooks', admin.token, 'https://hooks.example.com/a', ALL);
    const annHook = await createEndpoint('/api/webhooks', buyer.token, 'https://hooks.example.com/b', ALL);
    const open = async () => {
      const deal = {
        product_service: 'Lamp',
        description: 'Brass',
        amount_usd: '100.00',
        seller_email: 'sam@example.com',
      };
      expect((await t.app.request('/api/escrows', json(deal, buyer.token))).status).toBe(201);
    };
    const createdFor = async () =>
      (
        await t.database.db
          .selectFrom('webhook_deliveries')
          .select('endpoint_id')
          .where('event_type', '=', 'escrow.created')
          .execute()
      ).map((d) => d.endpoint_id);
    const setOwner = (id: string, change: { role?: 'admin' | 'seller'; is_frozen?: boolean }) =>
      t.database.db.updateTable('users').set(change).where('id', '=', id).execute();
    const adminId = (
      await t.database.db
        .selectFrom('webhook_endpoints')
        .select('owner_id')
        .where('id', '=', adminHook.endpoint.id)
        .executeTakeFirstOrThrow()
    ).owner_id;

    await open(); // both: the admin's sees every escrow, ann's the escrows she is a party to
    expect((await createdFor()).sort()).toEqual([adminHook.endpoint.id, annHook.endpoint.id].sort());
    await setOwner(adminId, { role: 'seller' });
    await open();
    expect(await createdFor()).toHaveLength(3);
    await setOwner(adminId, { role: 'admin', is_frozen: true });
    await open();
    expect(await createdFor()).toHaveLength(4);
    await setOwner(adminId, { is_frozen: false });
    await t.database.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', annHook.endpoint.id)
      .execute();
    await open();
    expect((await createdFor()).filter((id) => id === annHook.endpoint.id)).toHaveLength(3);
    expect((await createdFor()).filter((id) => id === adminHook.endpoint.id)).toHaveLength(2);
  });
});

describe('managing endpoints', () => {
  it("sends a test, redelivers with the same webhook-id, disables, hides others' endpoints and deletes", async () => {
    const receiver = await openReceiver(PORTS);
    try {
      const { buyer, seller } = await openMarket(t);
      const hook = await createEndpoint('/api/webhooks', buyer.token, `${receiver.url}/ann`, ['escrow.created']);
      const sealed = await t.database.db
        .selectFrom('webhook_endpoints')
        .select('secret_sealed')
        .executeTakeFirstOrThrow();
      expect(sealed.secret_sealed).not.toContain(hook.secret.slice(6, 20));
      expect(JSON.stringify(await (await t.app.request('/api/webhooks', bearer(buyer.token))).json())).not.toContain(
        hook.secret.slice(6),
      );

      const test = await t.app.request(`/api/webhooks/${hook.endpoint.id}/test`, bearer(buyer.token, 'POST'));
      expect(test.status).toBe(202);
      const queued = (await test.json()) as { id: number; webhook_id: string; status: string };
      expect(queued.status).toBe('pending');
      await deliver();
      expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['webhook.test']);

      const again = await t.app.request(`/api/webhooks/deliveries/${queued.id}/redeliver`, bearer(buyer.token, 'POST'));
      expect(again.status).toBe(202);
      await deliver();
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([queued.webhook_id, queued.webhook_id]);

      // Someone else's endpoint and delivery answer as if they did not exist.
      expect((await t.app.request(`/api/webhooks/${hook.endpoint.id}/deliveries`, bearer(seller.token))).status).toBe(
        404,
      );
      expect(
        (await t.app.request(`/api/webhooks/deliveries/${queued.id}/redeliver`, bearer(seller.token, 'POST'))).status,
      ).toBe(404);
      expect((await t.app.request(`/api/webhooks/${hook.endpoint.id}`, bearer(seller.token, 'DELETE'))).status).toBe(
        404,
      );

      // Disabled: nothing new is queued for it.
      const disabled = await t.app.request(`/api/webhooks/${hook.endpoint.id}/disable`, bearer(buyer.token, 'POST'));
      expect(((await disabled.json()) as { enabled: boolean }).enabled).toBe(false);
      await t.app.request(
        '/api/escrows',
        json(
          { product_service: 'Lamp', description: 'Desk lamp', amount_usd: '20.00', seller_email: 'sam@example.com' },
          buyer.token,
        ),
      );
      expect(await t.database.db.selectFrom('webhook_deliveries').select('event_type').execute()).toEqual([
        { event_type: 'webhook.test' },
      ]);

      expect((await t.app.request(`/api/webhooks/${hook.endpoint.id}`, bearer(buyer.token, 'DELETE'))).status).toBe(
        200,
      );
      expect(await (await t.app.request('/api/webhooks', bearer(buyer.token))).json()).toEqual([]);
      expect(await t.database.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad input with a detail naming the field', async () => {
    const { buyer } = await openMarket(t);
    for (const body of [
      { url: 'ftp://example.com/x', event_types: ['escrow.created'] },
      { url: 'http://example.com/x', event_types: [] },
      { url: 'http://example.com/x', event_types: ['escrow.nope'] },
      { event_types: ['escrow.created'] },
    ]) {
      const res = await t.app.request('/api/webhooks', json(body, buyer.token));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/url|event_types/);
    }
  });
});

describe('private destinations, by default', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await openTestApp();
  });
  afterAll(async () => strict.close());

  it('refuses a loopback or private URL (and a name resolving to one) unless WEBHOOK_ALLOW_PRIVATE is on', async () => {
    const { buyer } = await openMarket(strict);
    for (const url of [
      'http://127.0.0.1:3150/hook',
      'http://localhost:3150/hook',
      'http://[::1]:3150/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/x',
    ]) {
      const res = await strict.app.request(
        '/api/webhooks',
        json({ url, event_types: ['escrow.created'] }, buyer.token),
      );
      expect([url, res.status]).toEqual([url, 422]);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^url /);
    }
    expect(await strict.database.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
  });

  it('refuses to connect to a private address at delivery time too (a name that changed its answer)', async () => {
    const outcome = await sendWebhook(
      {
        url: 'http://localhost:3150/x',
        secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
        messageId: 'msg_x',
        payload: '{}',
      },
      new Date(),
      { allowPrivate: false },
    );
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/private address/);
  });
});
