import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableTwoFactorFor, signedInAdmin } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * The second-factor declarations read from the app's own routes: every admin route that writes declares that it is a
 * power (a code is asked for) or why it is none. A new admin write that declares neither fails here, and the powers
 * are sent to the app as it runs with the default settings (ADMIN_2FA_REQUIRED on).
 */
const ZERO = '00000000-0000-4000-8000-000000000000';
type Route = { method: string; template: string; path: string; powers: number; exemptions: string[] };

/**
 * Every route the app registered under /api/admin that is not a read, with what its declaration put among its
 * handlers (`adminPowerMiddleware`, or `notAPowerMiddleware` carrying its reason); middleware is registered on `*`.
 */
function adminWrites(t: TestApp): Route[] {
  const seen = new Map<string, Route>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith('/api/admin') || r.path.endsWith('*') || r.method === 'GET' || r.method === 'HEAD') continue;
    const key = `${r.method} ${r.path}`;
    const route = seen.get(key) ?? {
      method: r.method,
      template: r.path,
      path: r.path.replace(/:\w+/g, ZERO),
      powers: 0,
      exemptions: [],
    };
    if (r.handler.name === 'adminPowerMiddleware') route.powers += 1;
    if (r.handler.name === 'notAPowerMiddleware')
      route.exemptions.push((r.handler as unknown as { reason: string }).reason);
    seen.set(key, route);
  }
  return [...seen.values()];
}
const isPower = (route: Route) => route.powers > 0;
const named = (routes: Route[]) => routes.map((r) => `${r.method} ${r.template}`);

let t: TestApp;
let routes: Route[];
beforeAll(async () => {
  // No ADMIN_2FA_REQUIRED given: the app's default, as in production.
  t = await openTestApp({ ADMIN_2FA_REQUIRED: undefined });
  routes = adminWrites(t);
});
afterAll(async () => t?.close());

describe('every admin route that writes declares whether it needs a second factor', () => {
  it('runs with ADMIN_2FA_REQUIRED on by default', () => expect(t.deps.config.ADMIN_2FA_REQUIRED).toBe(true));

  it('finds the admin routes and their declarations (read from the app, not written here)', () => {
    expect(routes.length).toBeGreaterThan(25);
    expect(named(routes.filter(isPower))).toContain('POST /api/admin/escrows/:id/release');
    expect(named(routes.filter((r) => r.exemptions.length))).toContain('POST /api/admin/replay');
  });

  it('a power needing a code, or exempt with a reason; never both, never neither, never twice', () => {
    const neither = routes.filter((r) => r.powers + r.exemptions.length === 0);
    const more = routes.filter((r) => r.powers + r.exemptions.length > 1);
    expect(named(neither), 'admin writes that declare nothing: give each ADMIN_POWER or notAPower(reason)').toEqual([]);
    expect(named(more), 'admin writes declared more than once').toEqual([]);
    for (const reason of routes.flatMap((r) => r.exemptions)) expect(reason.trim().length).toBeGreaterThan(10);
  });
});

describe('the app asks what the routes declare', () => {
  it('every power refuses an admin without 2FA (403, admin_totp_not_enabled); no exempt route does', async () => {
    const admin = await signedInAdmin(t, 'plain');
    for (const route of routes) {
      const res = await t.app.request(route.path, {
        method: route.method,
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const { code } = (await res.json()) as { code?: string };
      const seen = `${route.method} ${route.template}: ${res.status} ${code}`;
      if (isPower(route)) expect([res.status, code], seen).toEqual([403, 'admin_totp_not_enabled']);
      else expect(code, seen).not.toBe('admin_totp_not_enabled');
    }
  });

  it('every power asks an admin with 2FA for a code (422, totp_required); no exempt route does', async () => {
    const admin = await signedInAdmin(t, 'coded');
    await enableTwoFactorFor(t, admin.token);
    for (const route of routes) {
      const res = await t.app.request(route.path, {
        method: route.method,
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const { code } = (await res.json()) as { code?: string };
      const seen = `${route.method} ${route.template}: ${res.status} ${code}`;
      if (isPower(route)) expect([res.status, code], seen).toEqual([422, 'totp_required']);
      else expect(code, seen).not.toBe('totp_required');
    }
  });
});
