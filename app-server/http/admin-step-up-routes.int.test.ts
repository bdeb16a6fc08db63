import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableTwoFactorFor, signedInAdmin } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { isAdminPower, NOT_POWERS, POWERS } from './middleware/admin-step-up.ts';

/**
 * The step-up list checked against the app's own routes: every admin route that writes is either a power (a code is
 * asked for) or listed in NOT_POWERS with its reason. A new admin route on neither list fails here, and the powers
 * are sent to the app as it runs with the default settings (ADMIN_2FA_REQUIRED on), not to a copy of the list.
 */
const ZERO = '00000000-0000-4000-8000-000000000000';
type Route = { method: string; template: string; path: string };

/** Every handler the app registered under /api/admin that is not a read; middleware is registered as ALL on `*`. */
function adminWrites(t: TestApp): Route[] {
  const seen = new Map<string, Route>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith('/api/admin') || r.path.endsWith('*') || r.method === 'GET' || r.method === 'HEAD') continue;
    const path = r.path.replace(/:\w+/g, ZERO);
    seen.set(`${r.method} ${r.path}`, { method: r.method, template: r.path, path });
  }
  return [...seen.values()];
}
const exemption = (route: Route) => NOT_POWERS.find(([m, p]) => m === route.method && p.test(route.path));
const named = (routes: Route[]) => routes.map((r) => `${r.method} ${r.template}`);

let t: TestApp;
let routes: Route[];
beforeAll(async () => {
  // No ADMIN_2FA_REQUIRED given: the app's default, as in production.
  t = await openTestApp({ ADMIN_2FA_REQUIRED: undefined });
  routes = adminWrites(t);
});
afterAll(async () => t?.close());

describe('every admin route that writes is on exactly one list', () => {
  it('runs with ADMIN_2FA_REQUIRED on by default', () => expect(t.deps.config.ADMIN_2FA_REQUIRED).toBe(true));

  it('finds the admin routes (the list is read from the app, not written here)', () => {
    expect(routes.length).toBeGreaterThanOrEqual(POWERS.length + NOT_POWERS.length);
    expect(named(routes)).toContain('POST /api/admin/escrows/:id/release');
  });

  it('a power needing a code, or exempt with a reason; never both, never neither', () => {
    const neither = routes.filter((r) => !isAdminPower(r.method, r.path) && !exemption(r));
    const both = routes.filter((r) => isAdminPower(r.method, r.path) && exemption(r));
    expect(named(neither), 'admin routes on neither list: add each to POWERS or to NOT_POWERS with a reason').toEqual([]);
    expect(named(both), 'admin routes on both lists').toEqual([]);
    for (const [, , reason] of NOT_POWERS) expect(reason.trim().length).toBeGreaterThan(10);
  });

  it('has no entry on either list that matches no route of the app', () => {
    const stalePowers = POWERS.filter(([m, p]) => !routes.some((r) => r.method === m && p.test(r.path)));
    const staleExempt = NOT_POWERS.filter(([m, p]) => !routes.some((r) => r.method === m && p.test(r.path)));
    expect(stalePowers.map(([m, p]) => `${m} ${p}`)).toEqual([]);
    expect(staleExempt.map(([m, p]) => `${m} ${p}`)).toEqual([]);
  });
});

describe('the app asks what the lists say', () => {
  it('every power refuses an admin without 2FA (403, admin_totp_not_enabled); no exempt route does', async () => {
    const admin = await signedInAdmin(t, 'plain');
    for (const route of routes) {
      const res = await t.app.request(route.path, { method: route.method, headers: { authorization: `Bearer ${admin.token}` } });
      const { code } = (await res.json()) as { code?: string };
      const seen = `${route.method} ${route.template}: ${res.status} ${code}`;
      if (isAdminPower(route.method, route.path)) expect([res.status, code], seen).toEqual([403, 'admin_totp_not_enabled']);
      else expect(code, seen).not.toBe('admin_totp_not_enabled');
    }
  });

  it('every power asks an admin with 2FA for a code (422, totp_required); no exempt route does', async () => {
    const admin = await signedInAdmin(t, 'coded');
    await enableTwoFactorFor(t, admin.token);
    for (const route of routes) {
      const res = await t.app.request(route.path, { method: route.method, headers: { authorization: `Bearer ${admin.token}` } });
      const { code } = (await res.json()) as { code?: string };
      const seen = `${route.method} ${route.template}: ${res.status} ${code}`;
      if (isAdminPower(route.method, route.path)) expect([res.status, code], seen).toEqual([422, 'totp_required']);
      else expect(code, seen).not.toBe('totp_required');
    }
  });
});
