import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { seedDemo } from '../demo/seed-demo.ts';
import { codeFor } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { makeTransaction, regtestProof } from '../../domain/bitcoin/spv-fixtures.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * The API documentation holds: the OpenAPI document passes a standard OpenAPI 3.1 validator, and every route,
 * called on a seeded store, answers with a status it documents and a body its documented schema accepts (the
 * answer schemas are strict: a field the document does not name fails too). Every documented operation is called.
 */

let t: TestApp;
let password: string;
const tokens: Record<string, string> = {};
/** Operations called, as `METHOD /api/path/{param}`, with the statuses seen. */
const called = new Map<string, Set<number>>();
const failures: string[] = [];

interface Documented {
  responses: Record<string, { content?: Record<string, { schema: z.ZodType }> }>;
}
let documented: Map<string, Documented>;

beforeAll(async () => {
  t = await openTestApp({
    PGP_PUBLIC_KEY_FILE: fileURLToPath(new URL('../testing/fixtures/support-key.asc', import.meta.url)),
    RATE_LIMIT_REVIEWS: '1000',
    RATE_LIMIT_REGISTER: '1000',
    MIN_WORK_BITS: '0x207fffff',
    MIN_CONFIRMATIONS: '1',
  });
  documented = new Map();
  for (const definition of t.app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { method, path, responses } = definition.route as unknown as {
      method: string;
      path: string;
      responses: Documented['responses'];
    };
    documented.set(`${method.toUpperCase()} ${path.startsWith('/api/') ? path : `/api${path}`}`, { responses });
  }
  ({ password } = await seedDemo(t.deps));
  for (const username of ['admin', 'alice', 'bruno', 'chiara', 'dmitri', 'elena', 'farid']) {
    tokens[username] = (
      (await (
        await t.app.request('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        })
      ).json()) as { access_token: string }
    ).access_token;
  }
}, 180_000);
afterAll(async () => t?.close());

type Body = { json: unknown } | { form: Record<string, string> } | { multipart: FormData };
interface Call {
  params?: Record<string, string>;
  query?: string;
  body?: Body;
  as?: string;
}

/** Calls an operation by its documented template and checks the answer against the document. */
async function call<T = Record<string, unknown>>(
  method: string,
  template: string,
  options: Call = {},
): Promise<{ status: number; body: T }> {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => options.params?.[name] ?? `{${name}}`);
  const headers: Record<string, string> = {};
  if (options.as) headers.authorization = `Bearer ${tokens[options.as] ?? options.as}`;
  let payload: BodyInit | undefined;
  if (options.body && 'json' in options.body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body.json);
  } else if (options.body && 'form' in options.body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(options.body.form).toString();
  } else if (options.body) payload = options.body.multipart;
  const res = await t.app.request(`${path}${options.query ? `?${options.query}` : ''}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const operation = `${method} ${template}`;
  const statuses = called.get(operation) ?? new Set<number>();
  statuses.add(res.status);
  called.set(operation, statuses);
  const doc = documented.get(operation);
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const body = (type.startsWith('application/json') ? JSON.parse(text) : text) as T;
  if (!doc) failures.push(`${operation}: not in the document`);
  else {
    const response = doc.responses[String(res.status)];
    if (!response)
      failures.push(`${operation} answered ${res.status}, which it does not document: ${text.slice(0, 200)}`);
    else if (type.startsWith('application/json')) {
      const schema = response.content?.['application/json']?.schema;
      if (!schema) failures.push(`${operation} ${res.status}: answered JSON, documents none`);
      else {
        const parsed = schema.safeParse(body);
        if (!parsed.success)
          failures.push(
            `${operation} ${res.status}: ${parsed.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
              .join('; ')}`,
          );
      }
    }
  }
  return { status: res.status, body };
}

const expectStatus = (answer: { status: number; body: unknown }, status: number) =>
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(status);
const newestMailTo = async (to: string) =>
  (
    await t.database.db
      .selectFrom('mail_outbox')
      .select('body')
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
  ).body;
const tokenInMail = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';
type EscrowBody = {
  id: string;
  status: string;
  creator_side: string;
  assigned_address: string | null;
  amount_sats: number;
  dispute: { id: string } | null;
};

describe('the OpenAPI document', () => {
  it('passes a standard OpenAPI 3.1 validator', async () => {
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result).slice(0, 2000)).toBe(true);
  });

  it('describes every answer with a real schema: no free-form object answers, and errors as {detail, code}', async () => {
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>
      >;
    };
    const loose: string[] = [];
    const withoutErrors: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        // /api/health answers whenever the process does: it has no refusal to document.
        if (path !== '/api/health' && !statuses.some((s) => s.startsWith('4') || s.startsWith('5')))
          withoutErrors.push(`${method} ${path}`);
        for (const [status, response] of Object.entries(operation.responses)) {
          const schema = response.content?.['application/json']?.schema;
          const text = JSON.stringify(schema ?? {});
          if (
            schema &&
            !text.includes('"properties"') &&
            !text.includes('"$ref"') &&
            !text.includes('"enum"') &&
            !text.includes('"type":"string"')
          )
            loose.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(loose).toEqual([]);
    expect(withoutErrors).toEqual([]);
  });

  it('names every operation with a unique operationId made from its method and path (stable while the path is)', async () => {
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, o]) => ({ route: `${method} ${path}`, id: o.operationId })),
    );
    expect(operations.filter((o) => !o.id).map((o) => o.route)).toEqual([]);
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    const idOf = (route: string) => operations.find((o) => o.route === route)?.id;
    expect(idOf('get /api/health')).toBe('getHealth');
    expect(idOf('post /api/escrows/{id}/mark-paid')).toBe('postEscrowsByIdMarkPaid');
    expect(idOf('get /api/admin/escrows/{id}/history')).toBe('getAdminEscrowsByIdHistory');
    expect(idOf('get /api/openapi.json')).toBeUndefined(); // the document itself is no operation of it
  });
});

describe('every route on a seeded store', () => {
  it('answers as documented', async () => {
    // Public.
    for (const path of [
      '/api/health',
      '/api/ready',
      '/api/site',
      '/api/pgp-key',
      '/api/btc-rate',
      '/api/reviews',
      '/api/reviews/stats',
      '/api/reviews/countries',
    ])
      expectStatus(await call('GET', path), 200);
    expectStatus(
      await call('POST', '/api/contact', {
        body: {
          json: { name: 'Visitor', email: 'visitor@example.com', message: 'How long does a payment check take?' },
        },
      }),
      202,
    );
    expectStatus(await call('POST', '/api/setup/status', { body: { json: { token: 'no-such-token' } } }), 200);
    expectStatus(
      await call('POST', '/api/setup/admin', {
        body: {
          json: {
            token: 'no-such-token',
            full_name: 'X',
            email: 'x@example.com',
            username: 'xavier',
            password: 'long enough pass',
            confirm_password: 'long enough pass',
          },
        },
      }),
      409,
    );
    expectStatus(await call('GET', '/api/escrows'), 401);

    // An account's life.
    expectStatus(
      await call('POST', '/api/auth/register', {
        body: {
          json: {
            full_name: 'Zoe Park',
            email: 'zoe@example.com',
            username: 'zoe',
            password,
            confirm_password: password,
            role: 'buyer',
          },
        },
      }),
      201,
    );
    expectStatus(
      await call('POST', '/api/auth/register', {
        body: {
          json: {
            full_name: 'Zoe Park',
            email: 'zoe@example.com',
            username: 'zoe',
            password,
            confirm_password: password,
          },
        },
      }),
      409,
    );
    const zoe = await call<{ access_token: string; user: { id: string } }>('POST', '/api/auth/login', {
      body: { json: { username: 'zoe', password } },
    });
    expectStatus(zoe, 200);
    tokens.zoe = zoe.body.access_token;
    expectStatus(await call('POST', '/api/auth/resend-verification', { as: 'zoe' }), 200);
    expectStatus(
      await call('POST', '/api/auth/verify-email', {
        body: { json: { token: tokenInMail(await newestMailTo('zoe@example.com')) } },
      }),
      200,
    );
    expect(
      (await call('POST', '/api/auth/verify-email', { body: { json: { token: 'used-or-made-up' } } })).status,
    ).toBeGreaterThanOrEqual(400);
    expectStatus(await call('GET', '/api/auth/me', { as: 'zoe' }), 200);
    const secret = await call<{ secret: string }>('POST', '/api/auth/setup-2fa', { as: 'zoe' });
    expectStatus(secret, 200);
    expect(
      (await call('POST', '/api/auth/verify-2fa', { as: 'zoe', body: { form: { totp_code: 'wrong' } } })).status,
    ).toBeGreaterThanOrEqual(400);
    expectStatus(
      await call('POST', '/api/auth/verify-2fa', {
        as: 'zoe',
        body: { form: { totp_code: await codeFor(secret.body.secret) } },
      }),
      200,
    );
    const recovery = await call<{ recovery_codes: string[] }>('POST', '/api/auth/recovery-codes', {
      as: 'zoe',
      body: { form: { totp_code: await codeFor(secret.body.secret, new Date(Date.now() + 30_000)) } },
    });
    expectStatus(recovery, 200);
    expectStatus(
      await call('POST', '/api/auth/disable-2fa', {
        as: 'zoe',
        body: { form: { totp_code: recovery.body.recovery_codes[0]! } },
      }),
      200,
    );
    const newPassword = `${password}-changed`;
    expectStatus(
      await call('POST', '/api/auth/change-password', {
        as: 'zoe',
        body: { json: { current_password: password, new_password: newPassword } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/profile/switch-role', { as: 'zoe', body: { form: { new_role: 'seller' } } }),
      200,
    );
    expectStatus(await call('POST', '/api/auth/logout', { as: 'zoe' }), 200);
    expectStatus(await call('GET', '/api/auth/me', { as: 'zoe' }), 401);

    // Admin: users.
    const id = zoe.body.user.id;
    expectStatus(await call('GET', '/api/admin/users', { as: 'admin' }), 200);
    expectStatus(await call('GET', '/api/admin/users', { as: 'alice' }), 403);
    expectStatus(
      await call('PUT', '/api/admin/users/{id}', {
        as: 'admin',
        params: { id },
        body: { form: { full_name: 'Zoe Park-Lee' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/users/{id}/suspend', {
        as: 'admin',
        params: { id },
        body: { form: { reason: 'Checking a report' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/users/{id}/cancel-unpaid-escrows', {
        as: 'admin',
        params: { id },
        body: { form: { reason: 'Checking a report' } },
      }),
      200,
    );
    expectStatus(await call('POST', '/api/admin/users/{id}/unsuspend', { as: 'admin', params: { id } }), 200);
    expectStatus(
      await call('POST', '/api/admin/users/{id}/reset-password', {
        as: 'admin',
        params: { id },
        body: { form: { temporary_password: 'a temporary passphrase' } },
      }),
      200,
    );
    expectStatus(await call('DELETE', '/api/admin/users/{id}', { as: 'admin', params: { id } }), 200);
    expectStatus(
      await call('DELETE', '/api/admin/users/{id}', {
        as: 'admin',
        params: { id: '00000000-0000-4000-8000-000000000000' },
      }),
      404,
    );

    // Admin: reviews.
    expectStatus(await call('GET', '/api/admin/reviews/pending', { as: 'admin' }), 200);
    const reviews = await call<{ id: string; status: string }[]>('GET', '/api/admin/reviews', { as: 'admin' });
    expectStatus(reviews, 200);
    const pending = reviews.body.find((r) => r.status === 'pending')!;
    expectStatus(
      await call('POST', '/api/admin/reviews/{id}/approve', { as: 'admin', params: { id: pending.id } }),
      200,
    );
    const fresh = await call<{ id: string }>('POST', '/api/reviews', {
      body: {
        json: {
          name: 'Nora',
          email: null,
          country: 'Norway',
          rating: 4,
          text: 'Clear and calm.',
          terms_accepted: true,
        },
      },
    });
    expectStatus(fresh, 201);
    expectStatus(
      await call('POST', '/api/admin/reviews/{id}/reject', {
        as: 'admin',
        params: { id: fresh.body.id },
        body: { form: { reason: 'Too short' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/reviews/{id}/reopen', { as: 'admin', params: { id: fresh.body.id } }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/reviews/{id}/edit', {
        as: 'admin',
        params: { id: fresh.body.id },
        body: { form: { edited_text: 'Clear and calm. Would use again.', admin_note: 'Joined two messages' } },
      }),
      200,
    );
    expectStatus(await call('DELETE', '/api/admin/reviews/{id}', { as: 'admin', params: { id: fresh.body.id } }), 200);
    expectStatus(await call('POST', '/api/reviews', { body: { json: { name: 'Nora' } } }), 422);

    // Admin: pricing and the pool.
    expectStatus(
      await call('PUT', '/api/admin/btc-rate', { as: 'admin', body: { form: { btc_usd_rate: '65000.50' } } }),
      200,
    );
    const added = await call<{ id: string }>('POST', '/api/admin/addresses', {
      as: 'admin',
      body: { form: { address_string: freshAddress() } },
    });
    expectStatus(added, 201);
    expectStatus(await call('GET', '/api/admin/addresses', { as: 'admin' }), 200);
    expectStatus(
      await call('PUT', '/api/admin/addresses/{id}', {
        as: 'admin',
        params: { id: added.body.id },
        body: { form: { address_string: freshAddress() } },
      }),
      200,
    );
    expectStatus(
      await call('DELETE', '/api/admin/addresses/{id}', { as: 'admin', params: { id: added.body.id } }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/addresses', { as: 'admin', body: { form: { address_string: 'not an address' } } }),
      422,
    );
    expectStatus(
      await call('POST', '/api/admin/addresses/bulk', {
        as: 'admin',
        body: { json: { addresses: [freshAddress(), 'not an address'] } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/addresses/bulk', { as: 'admin', body: { json: { addresses: [] } } }),
      422,
    );

    // Escrows: a party's view and the whole life of new ones.
    const all = await call<{ escrows: EscrowBody[] }>('GET', '/api/admin/escrows', { as: 'admin' });
    expectStatus(all, 200);
    expectStatus(await call('GET', '/api/escrows', { as: 'alice' }), 200);
    const open = async (buyer: string, seller: string) => {
      const made = await call<EscrowBody>('POST', '/api/escrows', {
        as: buyer,
        body: {
          json: {
            product_service: 'Desk lamp',
            description: 'Brass, working',
            amount_usd: '120.00',
            seller_email: `${seller}@example.com`,
          },
        },
      });
      expectStatus(made, 201);
      return made.body;
    };
    const funded = async (buyer: string, seller: string) => {
      const escrow = await open(buyer, seller);
      const form = new FormData();
      form.set('notes', 'sent');
      form.set('file', new File(['receipt'], 'receipt.txt', { type: 'text/plain' }));
      expectStatus(
        await call('POST', '/api/escrows/{id}/mark-paid', {
          as: buyer,
          params: { id: escrow.id },
          body: { multipart: form },
        }),
        200,
      );
      expectStatus(
        await call('POST', '/api/admin/escrows/{id}/verify-payment', {
          as: 'admin',
          params: { id: escrow.id },
          body: { form: { verified: 'true', notes: 'seen' } },
        }),
        200,
      );
      return escrow;
    };
    const a = await funded('alice', 'dmitri');
    // The deal's steps (contract 7): the seller agrees and ships, the buyer receives; another deal is declined.
    expectStatus(await call('POST', '/api/escrows/{id}/agree', { as: 'dmitri', params: { id: a.id } }), 200);
    expectStatus(
      await call('POST', '/api/escrows/{id}/ship', {
        as: 'dmitri',
        params: { id: a.id },
        body: { json: { method: 'digital' } },
      }),
      200,
    );
    expectStatus(await call('POST', '/api/escrows/{id}/receive', { as: 'alice', params: { id: a.id } }), 200);
    // Settlement by agreement (contract 7.5): declined, withdrawn, then a split accepted and executed by an admin.
    const settled = await funded('alice', 'dmitri');
    const proposals = '/api/escrows/{id}/proposals';
    const propose = async (as: string, json: Record<string, unknown>) => {
      const made = await call<EscrowBody & { proposals: { id: string }[] }>('POST', proposals, {
        as,
        params: { id: settled.id },
        body: { json },
      });
      expectStatus(made, 200);
      return made.body.proposals.at(-1)!.id;
    };
    const first = await propose('alice', { kind: 'refund', note: 'Never arrived' });
    expectStatus(
      await call('POST', `${proposals}/{pid}/decline`, {
        as: 'dmitri',
        params: { id: settled.id, pid: first },
        body: { json: { reason: 'Tracked' } },
      }),
      200,
    );
    const second = await propose('dmitri', { kind: 'split', seller_percent: 90 });
    expectStatus(
      await call('POST', `${proposals}/{pid}/withdraw`, { as: 'dmitri', params: { id: settled.id, pid: second } }),
      200,
    );
    expectStatus(
      await call('POST', proposals, { as: 'alice', params: { id: settled.id }, body: { json: { kind: 'split' } } }),
      422,
    );
    const third = await propose('alice', { kind: 'split', seller_percent: 70 });
    expectStatus(
      await call('POST', `${proposals}/{pid}/accept`, { as: 'dmitri', params: { id: settled.id, pid: third } }),
      200,
    );
    // No payout or refund address yet: the admin's resolve is refused until both are set.
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/resolve', {
        as: 'admin',
        params: { id: settled.id },
        body: { form: {} },
      }),
      409,
    );
    const refused = await open('alice', 'dmitri');
    expectStatus(
      await call('POST', '/api/escrows/{id}/decline', {
        as: 'dmitri',
        params: { id: refused.id },
        body: { json: { reason: 'Sold out' } },
      }),
      200,
    );
    // A payment proof (SPV) checked without recording anything: what it proves, then a refusal.
    const unpaid = await open('alice', 'dmitri');
    // A proof is checked against a payment the buyer says was sent.
    const marked = new FormData();
    marked.set('notes', 'sent');
    expectStatus(
      await call('POST', '/api/escrows/{id}/mark-paid', {
        as: 'alice',
        params: { id: unpaid.id },
        body: { multipart: marked },
      }),
      200,
    );
    const proof = regtestProof(
      makeTransaction([{ address: unpaid.assigned_address!, sats: unpaid.amount_sats }], 'mainnet'),
      { following: 0 },
    );
    const proofFields = { tx_hex: proof.tx_hex, txout_proof: proof.txout_proof };
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/payment-proof', {
        as: 'admin',
        params: { id: unpaid.id },
        body: { form: proofFields },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/payment-proof', {
        as: 'admin',
        params: { id: unpaid.id },
        body: { form: { ...proofFields, headers: 'ab' } },
      }),
      422,
    );
    expectStatus(await call('GET', '/api/escrows/{id}', { as: 'dmitri', params: { id: a.id } }), 200);
    expectStatus(await call('GET', '/api/escrows/{id}', { as: 'bruno', params: { id: a.id } }), 404);
    expectStatus(await call('GET', '/api/escrows/{id}/history', { as: 'alice', params: { id: a.id } }), 200);
    await t.deps.transparency!.introduceKey(t.deps.store);
    const signed = (await t.deps.transparency!.signIfGrown())!;
    expectStatus(await call('GET', '/api/escrows/{id}/proof', { as: 'alice', params: { id: a.id } }), 200);
    for (const path of ['/api/transparency/checkpoint', '/api/transparency/key', '/api/transparency/checkpoints'])
      expectStatus(await call('GET', path), 200);
    expectStatus(await call('GET', '/api/transparency/inclusion', { query: `index=0&size=${signed.size}` }), 200);
    expectStatus(await call('GET', '/api/transparency/consistency', { query: `from=1&to=${signed.size}` }), 200);
    expectStatus(await call('GET', '/api/admin/escrows/{id}/history', { as: 'admin', params: { id: a.id } }), 200);
    expectStatus(await call('POST', '/api/escrows/{id}/confirm-receipt', { as: 'alice', params: { id: a.id } }), 200);
    expectStatus(
      await call('GET', '/api/escrows/{id}/address-message', {
        as: 'dmitri',
        params: { id: a.id },
        query: `address=${freshAddress()}`,
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/escrows/{id}/payout-address', {
        as: 'dmitri',
        params: { id: a.id },
        body: { json: { address: freshAddress() } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/freeze', {
        as: 'admin',
        params: { id: a.id },
        body: { form: { reason: 'Check' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/unfreeze', {
        as: 'admin',
        params: { id: a.id },
        body: { form: { reason: 'Clear' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/release', {
        as: 'admin',
        params: { id: a.id },
        body: { form: { notes: 'Delivered' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/release', {
        as: 'admin',
        params: { id: a.id },
        body: { form: { notes: 'again' } },
      }),
      409,
    );
    const b = await funded('bruno', 'elena');
    expectStatus(
      await call('POST', '/api/escrows/{id}/payout-address', {
        as: 'bruno',
        params: { id: b.id },
        body: { json: { address: freshAddress() } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/refund', {
        as: 'admin',
        params: { id: b.id },
        body: { form: { notes: 'Agreed' } },
      }),
      200,
    );
    const c = await funded('chiara', 'farid');
    const disputed = await call<EscrowBody>('POST', '/api/escrows/{id}/open-dispute', {
      as: 'farid',
      params: { id: c.id },
      body: { json: { reason: 'No answer' } },
    });
    expectStatus(disputed, 200);
    expectStatus(
      await call('POST', '/api/escrows/{id}/messages', {
        as: 'farid',
        params: { id: c.id },
        body: { json: { text: 'It was sent on Monday' } },
      }),
      201,
    );
    const withFile = new FormData();
    withFile.append('text', 'The label');
    withFile.append('file', new File(['Tracking 1Z999\n'], 'label.txt', { type: 'text/plain' }));
    expectStatus(
      await call('POST', '/api/escrows/{id}/messages', {
        as: 'admin',
        params: { id: c.id },
        body: { multipart: withFile },
      }),
      201,
    );
    expectStatus(
      await call('POST', '/api/escrows/{id}/messages', {
        as: 'chiara',
        params: { id: c.id },
        body: { json: { text: ' ' } },
      }),
      422,
    );
    expectStatus(await call('GET', '/api/escrows/{id}/messages', { as: 'chiara', params: { id: c.id } }), 200);
    expectStatus(await call('GET', '/api/escrows/{id}/messages', { as: 'bruno', params: { id: c.id } }), 404);
    expectStatus(await call('GET', '/api/admin/disputes', { as: 'admin' }), 200);
    expectStatus(
      await call('POST', '/api/admin/disputes/{id}/resolve', {
        as: 'admin',
        params: { id: disputed.body.dispute!.id },
        body: { form: { outcome: 'Talked it through' } },
      }),
      200,
    );
    const sellerMade = await call<EscrowBody>('POST', '/api/escrows', {
      as: 'dmitri',
      body: {
        json: {
          product_service: 'Bookshelf',
          description: 'Oak',
          amount_usd: '90.00',
          buyer_email: 'alice@example.com',
        },
      },
    });
    expectStatus(sellerMade, 201);
    expectStatus(
      await call('POST', '/api/escrows/{id}/request-payment', { as: 'alice', params: { id: sellerMade.body.id } }),
      200,
    );
    const byHand = await call<EscrowBody>('POST', '/api/escrows', {
      as: 'dmitri',
      body: {
        json: { product_service: 'Chair', description: 'Oak', amount_usd: '40.00', buyer_email: 'bruno@example.com' },
      },
    });
    const free = await call<{ id: string; status: string }[]>('GET', '/api/admin/addresses', { as: 'admin' });
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/assign-address', {
        as: 'admin',
        params: { id: byHand.body.id },
        body: { form: { address_id: free.body.find((x) => x.status === 'available')!.id } },
      }),
      200,
    );
    const cancelled = await open('alice', 'elena');
    expectStatus(await call('POST', '/api/escrows/{id}/cancel', { as: 'alice', params: { id: cancelled.id } }), 200);
    const cancelledByAdmin = await open('bruno', 'elena');
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/cancel', {
        as: 'admin',
        params: { id: cancelledByAdmin.id },
        body: { form: { reason: 'Holding a pool address' } },
      }),
      200,
    );
    expectStatus(
      await call('POST', '/api/admin/escrows/{id}/cancel', {
        as: 'admin',
        params: { id: cancelledByAdmin.id },
        body: { form: { reason: 'again' } },
      }),
      409,
    );
    expectStatus(await call('POST', '/api/escrows', { as: 'alice', body: { json: { product_service: 'x' } } }), 422);

    // Payment desk and evidence.
    const waiting = await call<{ evidence: { evidence_id: string }[] }[]>('GET', '/api/admin/pending-verifications', {
      as: 'admin',
    });
    expectStatus(waiting, 200);
    const evidence = await call('GET', '/api/evidence/{id}', {
      as: 'admin',
      params: { id: waiting.body[0]!.evidence[0]!.evidence_id },
    });
    expectStatus(evidence, 200);

    // Audit.
    expectStatus(await call('GET', '/api/admin/audit-logs', { as: 'admin', query: 'limit=20' }), 200);
    expectStatus(await call('GET', '/api/admin/events', { as: 'admin', query: 'limit=20' }), 200);
    expectStatus(await call('GET', '/api/admin/chain', { as: 'admin' }), 200);
    expectStatus(await call('POST', '/api/admin/replay', { as: 'admin' }), 200);
    const exported = await call<string>('GET', '/api/admin/events/export', { as: 'admin' });
    expectStatus(exported, 200);
    expect(exported.body.split('\n').length).toBeGreaterThan(100);

    // Integrations: webhooks (the admins' and a user's) and API tokens.
    for (const [as, base] of [
      ['alice', '/api/webhooks'],
      ['admin', '/api/admin/webhooks'],
    ] as const) {
      const hook = await call<{ endpoint: { id: string } }>('POST', base, {
        as,
        body: { json: { url: 'http://93.184.216.34/hook', event_types: ['escrow.created', 'escrow.funded'] } },
      });
      expectStatus(hook, 201);
      expectStatus(
        await call('POST', base, {
          as,
          body: { json: { url: 'http://127.0.0.1/hook', event_types: ['escrow.created'] } },
        }),
        422,
      );
      expectStatus(await call('GET', base, { as }), 200);
      const params = { id: hook.body.endpoint.id };
      const test = await call<{ id: number }>('POST', `${base}/{id}/test`, { as, params });
      expectStatus(test, 202);
      expectStatus(await call('GET', `${base}/{id}/deliveries`, { as, params }), 200);
      expectStatus(
        await call('POST', `${base}/deliveries/{id}/redeliver`, { as, params: { id: String(test.body.id) } }),
        202,
      );
      expectStatus(await call('POST', `${base}/{id}/disable`, { as, params }), 200);
      expectStatus(await call('POST', `${base}/{id}/enable`, { as, params }), 200);
      expectStatus(await call('DELETE', `${base}/{id}`, { as, params }), 200);
      expectStatus(await call('DELETE', `${base}/{id}`, { as, params }), 404);
    }
    const apiToken = await call<{ api_token: { id: string } }>('POST', '/api/tokens', {
      as: 'alice',
      body: { json: { name: 'Books', scopes: ['read'] } },
    });
    expectStatus(apiToken, 201);
    expectStatus(
      await call('POST', '/api/tokens', { as: 'admin', body: { json: { name: 'Books', scopes: ['read'] } } }),
      403,
    );
    expectStatus(await call('GET', '/api/tokens', { as: 'alice' }), 200);
    expectStatus(
      await call('DELETE', '/api/tokens/{id}', { as: 'alice', params: { id: apiToken.body.api_token.id } }),
      200,
    );
    for (const report of ['escrows.csv', 'payouts.csv', 'fees.csv', 'overview']) {
      expectStatus(await call('GET', `/api/admin/reports/${report}`, { as: 'admin', query: 'from=2020-01-01' }), 200);
      expectStatus(await call('GET', `/api/admin/reports/${report}`, { as: 'admin', query: 'from=not-a-date' }), 422);
    }

    expect(failures).toEqual([]);
    const missed = [...documented.keys()].filter((operation) => !called.has(operation));
    expect(missed, 'documented operations this test never called').toEqual([]);
  }, 120_000);
});
