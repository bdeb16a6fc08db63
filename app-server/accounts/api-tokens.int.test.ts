import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/tokens.ts';
import { checkApiTokenReach } from '../http/middleware/api-token-reach.ts';
import { bearer, enableTwoFactorFor, freshCode, json, signedInAdmin, signedInUser } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Made = { token: string; api_token: { id: string; name: string; scopes: string[]; last_used_at: string | null } };

describe('API tokens', () => {
  it('are shown once, kept hashed, listed with their last use, act for their user and stop when revoked', async () => {
    const ann = await signedInUser(t, 'ann');
    const res = await t.app.request(
      '/api/tokens',
      json({ name: 'Shop sync', scopes: ['read', 'write', 'read'] }, ann.token),
    );
    expect(res.status).toBe(201);
    const made = (await res.json()) as Made;
    expect(made.token).toMatch(/^esc_[A-Za-z0-9_-]{43}$/);
    expect(made.api_token).toMatchObject({ name: 'Shop sync', scopes: ['read', 'write'], last_used_at: null });
    const stored = await t.database.db.selectFrom('api_tokens').select(['token_hash']).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(made.token));

    const me = await t.app.request('/api/auth/me', bearer(made.token));
    expect(((await me.json()) as { username: string }).username).toBe('ann');
    expect((await t.app.request('/api/escrows', bearer(made.token))).status).toBe(200);
    const listed = (await (await t.app.request('/api/tokens', bearer(ann.token))).json()) as Made['api_token'][];
    expect(listed).toHaveLength(1);
    expect(listed[0]!.last_used_at).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(made.token);

    expect((await t.app.request(`/api/tokens/${made.api_token.id}`, bearer(made.token, 'DELETE'))).status).toBe(403); // not with itself
    expect((await t.app.request(`/api/tokens/${made.api_token.id}`, bearer(ann.token, 'DELETE'))).status).toBe(200);
    expect((await t.app.request('/api/escrows', bearer(made.token))).status).toBe(401);
    expect(await (await t.app.request('/api/tokens', bearer(ann.token))).json()).toEqual([]);
    expect((await t.app.request(`/api/tokens/${made.api_token.id}`, bearer(ann.token, 'DELETE'))).status).toBe(404);
  });

  it('asks for a 2FA code when 2FA is on', async () => {
    const ann = await signedInUser(t, 'ann');
    const { secret } = await enableTwoFactorFor(t, ann.token);
    const without = await t.app.request('/api/tokens', json({ name: 'x', scopes: ['read'] }, ann.token));
    expect(without.status).toBe(422);
    expect(((await without.json()) as { detail: string }).detail).toMatch(/totp_code/);
    const wrong = await t.app.request(
      '/api/tokens',
      json({ name: 'x', scopes: ['read'], totp_code: '000000' }, ann.token),
    );
    expect(wrong.status).toBe(422);
    const right = await t.app.request(
      '/api/tokens',
      json({ name: 'x', scopes: ['read'], totp_code: await freshCode(t, ann.id, secret) }, ann.token),
    );
    expect(right.status).toBe(201);
  });

  it('are never made by an admin, and refuse bad input naming the field', async () => {
    const admin = await signedInAdmin(t);
    expect((await t.app.request('/api/tokens', json({ name: 'x', scopes: ['read'] }, admin.token))).status).toBe(403);
    const ann = await signedInUser(t, 'ann');
    for (const [body, field] of [
      [{ scopes: ['read'] }, 'name'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['admin'] }, 'scopes'],
    ] as const) {
      const res = await t.app.request('/api/tokens', json(body, ann.token));
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain(field);
    }
  });
});

describe('checkApiTokenReach', () => {
  it('gives GET to read, everything else to write, and nothing out of reach to either', () => {
    expect(() => checkApiTokenReach('GET', '/api/escrows', ['read'])).not.toThrow();
    expect(() => checkApiTokenReach('GET', '/api/escrows', ['write'])).toThrow(/no read scope/);
    expect(() => checkApiTokenReach('POST', '/api/escrows', ['write'])).not.toThrow();
    expect(() => checkApiTokenReach('POST', '/api/escrows', ['read'])).toThrow(/no write scope/);
    for (const [method, path] of [
      ['GET', '/api/admin/users'],
      ['POST', '/api/tokens'],
      ['POST', '/api/auth/setup-2fa'],
      ['POST', '/api/profile/switch-role'],
      ['GET', '/api/tokens'],
    ]) {
      expect(() => checkApiTokenReach(method!, path!, ['read', 'write'])).toThrow(/cannot be used here/);
    }
    expect(() => checkApiTokenReach('GET', '/api/auth/me', ['read'])).not.toThrow();
    expect(() => checkApiTokenReach('GET', '/api/administrator', ['read'])).not.toThrow();
  });
});
