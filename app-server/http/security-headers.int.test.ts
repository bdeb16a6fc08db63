import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BODY_BYTES } from '../escrows/evidence.ts';
import { bearer, form, json, multipart, signedInUser, signIn } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { type App, createApp } from './app.ts';

/**
 * CSP, framing, nosniff and referrer policy on every response the server gives: every route of the app (from
 * `app.routes`, path parameters filled with random ids) anonymously, as a buyer and as an admin, whatever status
 * comes back; unknown routes, refused tokens, oversized bodies, a suspended account, a crash; an evidence download
 * and the export stream; the built web app's files, its history fallback and its "not built" answer.
 * app.int.test.ts checks the headers on /api/health alone.
 */

let t: TestApp;
let admin: { id: string; token: string };
let buyer: { id: string; token: string };
let escrowId: string;
let evidenceId: string;
const dir = mkdtempSync(join(tmpdir(), 'security-headers-'));
const webDist = join(dir, 'dist');
/** Every response checked, by label, to show what was covered. */
const seen: { label: string; status: number }[] = [];

beforeAll(async () => {
  t = await openTestApp();
  ({ admin, buyer } = await openMarket(t, ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4']));
  const created = await t.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      buyer.token,
    ),
  );
  expect(created.status).toBe(201);
  escrowId = ((await created.json()) as { id: string }).id;
  // HTML is refused at upload; a text receipt is still only ever a download that no browser sniffs.
  const receipt = new File(['txid 4a5e1e4b, sent 0.0203 BTC\n'], 'receipt.txt', { type: 'text/plain' });
  expect(
    (
      await t.app.request(
        `/api/escrows/${escrowId}/mark-paid`,
        multipart({ notes: 'sent', file: receipt }, buyer.token),
      )
    ).status,
  ).toBe(200);
  evidenceId = (await t.database.db.selectFrom('payment_evidence').select('evidence_id').executeTakeFirstOrThrow())
    .evidence_id;

  mkdirSync(join(webDist, 'assets'), { recursive: true });
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><html><head><title>Escrow</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(webDist, 'assets', 'index-3f9a1c.js'), 'console.log("app")');
  writeFileSync(join(webDist, 'assets', 'index-3f9a1c.css'), 'body{margin:0}');
  writeFileSync(join(webDist, 'robots.txt'), 'User-agent: *\n');
  mkdirSync(join(dir, 'empty'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const SAFE_REFERRER_POLICIES = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];

/** The protections, each strict enough to matter. */
function expectSecurityHeaders(res: Response, label: string): void {
  seen.push({ label, status: res.status });
  const where = `${label} (${res.status})`;
  const csp = res.headers.get('content-security-policy');
  expect.soft(csp, `${where}: Content-Security-Policy`).toBeTruthy();
  const directives = new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values] as const),
  );
  const defaultSrc = directives.get('default-src') ?? [];
  expect
    .soft(
      defaultSrc.length > 0 && defaultSrc.every((v) => v === "'self'" || v === "'none'"),
      `${where}: default-src is 'self' or stricter, got ${csp}`,
    )
    .toBe(true);
  expect.soft(directives.get('frame-ancestors'), `${where}: frame-ancestors`).toEqual(["'none'"]);
  // An allow-list, not a deny-list: only this origin, nothing, or the response's nonce; data: and blob: only for images (QR codes, evidence previews fetched by the page itself).
  for (const [name, values] of directives) {
    const allowed = (v: string) =>
      v === "'self'" ||
      v === "'none'" ||
      /^'nonce-[A-Za-z0-9+/=_-]+'$/.test(v) ||
      (name === 'img-src' && (v === 'data:' || v === 'blob:'));
    expect
      .soft(
        values.filter((v) => !allowed(v)),
        `${where}: ${name} allows more than this origin`,
      )
      .toEqual([]);
  }
  const hsts = /^max-age=(\d+)/.exec(res.headers.get('strict-transport-security') ?? '');
  expect
    .soft(Number(hsts?.[1] ?? 0), `${where}: Strict-Transport-Security max-age of at least 180 days`)
    .toBeGreaterThanOrEqual(180 * 86_400);
  expect
    .soft(res.headers.get('cross-origin-resource-policy'), `${where}: Cross-Origin-Resource-Policy`)
    .toBe('same-origin');
  expect.soft(res.headers.get('x-frame-options'), `${where}: X-Frame-Options`).toBe('DENY');
  expect.soft(res.headers.get('x-content-type-options'), `${where}: X-Content-Type-Options`).toBe('nosniff');
  expect
    .soft(SAFE_REFERRER_POLICIES, `${where}: Referrer-Policy ${res.headers.get('referrer-policy')}`)
    .toContain(res.headers.get('referrer-policy'));
}

async function check(app: App, label: string, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await app.request(path, init);
  expectSecurityHeaders(res, label);
  await res.arrayBuffer();
  return res;
}

/** Every method and path the app routes, once each; `:param` (with or without a pattern) becomes a random id. */
function everyRoute(app: App): { method: string; path: string }[] {
  const unique = new Map<string, { method: string; path: string }>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const path = route.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, () => randomUUID());
    unique.set(`${route.method} ${route.path}`, { method: route.method, path });
  }
  // Logging out ends the session the next calls use: last.
  return [...unique.values()].sort((a, b) => Number(a.path.endsWith('/logout')) - Number(b.path.endsWith('/logout')));
}

function requestFor(method: string, token?: string): RequestInit {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (method === 'GET' || method === 'HEAD') return { method, headers };
  return { method, headers: { ...headers, 'content-type': 'application/json' }, body: '{}' };
}

describe('every route', () => {
  it('lists the whole API', () => {
    const routes = everyRoute(t.app);
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.map((r) => r.method)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
  });

  for (const who of ['anonymous', 'buyer', 'admin'] as const) {
    it(`has the headers on every answer, as ${who}`, async () => {
      // A session of its own: the sweep ends with a logout.
      const token = who === 'anonymous' ? undefined : await signIn(t, who === 'buyer' ? 'ann' : 'root');
      const statuses = new Set<number>();
      for (const { method, path } of everyRoute(t.app)) {
        statuses.add((await check(t.app, `${who} ${method} ${path}`, path, requestFor(method, token))).status);
      }
      // Successes and refusals alike were checked.
      const expected = { anonymous: [200, 401, 422], buyer: [200, 403, 404, 422], admin: [200, 404, 422] }[who];
      expect([...statuses]).toEqual(expect.arrayContaining(expected));
    });
  }

  it('has them on routes with real ids: a new escrow, its history, an evidence file and the export stream', async () => {
    const deal = {
      product_service: 'Lens',
      description: '50 mm',
      amount_usd: '300.00',
      seller_email: 'sam@example.com',
    };
    expect((await check(t.app, 'create escrow', '/api/escrows', json(deal, buyer.token))).status).toBe(201);
    const evidence = await check(t.app, 'evidence download', `/api/evidence/${evidenceId}`, bearer(admin.token));
    expect([evidence.status, evidence.headers.get('content-disposition')]).toEqual([
      200,
      'attachment; filename="receipt.txt"',
    ]);
    expect((await check(t.app, 'escrow', `/api/escrows/${escrowId}`, bearer(buyer.token))).status).toBe(200);
    expect(
      (await check(t.app, 'escrow history', `/api/admin/escrows/${escrowId}/history`, bearer(admin.token))).status,
    ).toBe(200);
    const exported = await check(t.app, 'export', '/api/admin/events/export?from=1', bearer(admin.token));
    expect([exported.status, exported.headers.get('content-type')]).toEqual([200, 'application/x-ndjson']);
  });
});

describe('error answers', () => {
  it('404 for unknown API routes and wrong methods, 401 for dead tokens, a suspended account', async () => {
    expect((await check(t.app, 'unknown GET', '/api/no-such-thing')).status).toBe(404);
    expect((await check(t.app, 'unknown POST', '/api/no-such-thing', requestFor('POST'))).status).toBe(404);
    expect((await check(t.app, 'wrong method', '/api/health', { method: 'DELETE' })).status).toBe(404);
    expect((await check(t.app, 'OPTIONS', '/api/escrows', { method: 'OPTIONS' })).status).toBe(404);
    expect((await check(t.app, 'non-API path without a web app', '/dashboard')).status).toBe(404);
    expect((await check(t.app, 'no token', '/api/auth/me')).status).toBe(401);
    expect((await check(t.app, 'unknown token', '/api/auth/me', bearer('a'.repeat(43)))).status).toBe(401);
    expect((await check(t.app, 'malformed token', '/api/admin/users', bearer('not a token'))).status).toBe(401);
    const zoe = await signedInUser(t, 'zoe');
    expect(
      (await t.app.request(`/api/admin/users/${zoe.id}/suspend`, form({ reason: 'fraud' }, admin.token))).status,
    ).toBe(200);
    // Suspending signs the account out everywhere: its token is dead.
    expect((await check(t.app, 'token of a suspended account', '/api/auth/me', bearer(zoe.token))).status).toBe(401);
    expect(
      (
        await check(
          t.app,
          'suspended account signing in',
          '/api/auth/login',
          json({ username: 'zoe', password: 'correct horse battery' }),
        )
      ).status,
    ).toBe(403);
  });

  it('413 for bodies over either limit, 422 for a bad path parameter, 400 for broken JSON', async () => {
    const big = (bytes: number) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(bytes),
    });
    expect((await check(t.app, 'body over 1 MB', '/api/auth/login', big(1024 * 1024 + 1))).status).toBe(413);
    expect(
      (
        await check(t.app, 'upload over the limit', `/api/escrows/${escrowId}/mark-paid`, {
          ...big(MAX_UPLOAD_BODY_BYTES + 1),
          headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'multipart/form-data; boundary=x' },
        })
      ).status,
    ).toBe(413);
    expect((await check(t.app, 'bad id', '/api/escrows/not-a-uuid', bearer(buyer.token))).status).toBe(422);
    const broken = await check(t.app, 'broken JSON', '/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect([400, 422]).toContain(broken.status);
  });

  it('an idempotent replay carries them as the first answer did', async () => {
    const init = json(
      { message: 'Hello there, a question about my escrow.', email: 'ann@example.com', name: 'Ann' },
      undefined,
      { 'idempotency-key': 'headers-replay-1' },
    );
    const first = await check(t.app, 'idempotent first', '/api/contact', init);
    const again = await check(t.app, 'idempotent replay', '/api/contact', init);
    expect([first.status, again.status]).toEqual([202, 202]);
  });

  it('500 when the database fails under a request', async () => {
    const failing = new Proxy(t.deps.database.db, {
      get: () => () => {
        throw new Error('database down');
      },
    });
    const down = createApp({ ...t.deps, database: { ...t.deps.database, db: failing } });
    expect((await check(down, 'crash (public route)', '/api/btc-rate')).status).toBe(500);
    expect((await check(down, 'crash (in authentication)', '/api/auth/me', bearer(buyer.token))).status).toBe(500);
    expect((await check(down, 'database unreachable', '/api/ready')).status).toBe(503);
  });
});

describe('the web app', () => {
  it('its files, the history fallback and unknown methods', async () => {
    const web = createApp(t.deps, { webDist });
    const index = await check(web, 'index', '/');
    expect([index.status, index.headers.get('content-type')?.toLowerCase()]).toEqual([200, 'text/html; charset=utf-8']);
    expect((await check(web, 'index.html', '/index.html')).status).toBe(200);
    const script = await check(web, 'script', '/assets/index-3f9a1c.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await check(web, 'stylesheet', '/assets/index-3f9a1c.css')).status).toBe(200);
    expect((await check(web, 'root file', '/robots.txt')).status).toBe(200);
    const fallback = await check(web, 'history fallback', `/escrow/${randomUUID()}`);
    expect([fallback.status, fallback.headers.get('cache-control')]).toEqual([200, 'no-store']);
    expect((await check(web, 'no such page', `/escrows/${randomUUID()}`)).status).toBe(404);
    expect((await check(web, 'missing asset', '/assets/missing.js')).status).toBe(404);
    expect((await check(web, 'traversal', '/..%2f..%2fetc/passwd')).status).toBe(404);
    expect((await check(web, 'HEAD', '/', { method: 'HEAD' })).status).toBe(200);
    expect((await check(web, 'POST to a page', '/escrows', { method: 'POST' })).status).toBe(404);
    expect((await check(web, 'API 404 beside the web app', '/api/nothing-here')).status).toBe(404);
    expect((await check(web, 'API beside the web app', '/api/health')).status).toBe(200);
  });

  it('pages may show images the page fetched itself (blob: evidence previews), and API answers may show nothing', async () => {
    const web = createApp(t.deps, { webDist });
    const imgSrc = (res: Response) =>
      /img-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]?.split(' ');
    expect(imgSrc(await check(web, 'the console', '/admin?tab=verifications'))).toEqual(["'self'", 'data:', 'blob:']);
    expect(imgSrc(await check(web, 'API', '/api/health'))).toBeUndefined();
  });

  it('the "not built" answer', async () => {
    const unbuilt = createApp(t.deps, { webDist: join(dir, 'empty') });
    expect((await check(unbuilt, 'web app not built', '/')).status).toBe(503);
  });
});

describe('coverage', () => {
  it('checked successes and every kind of refusal', () => {
    const statuses = new Set(seen.map((s) => s.status));
    expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 202, 401, 403, 404, 413, 422, 500, 503]));
    expect(seen.length).toBeGreaterThan(200);
  });
});
