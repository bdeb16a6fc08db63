import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/tokens.ts';
import { bearer, json } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { ensureAdmin } from './first-admin.ts';
import { issueSetupLink } from './first-admin-setup.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: 'https://escrow.example' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const admin = (token: string, username = 'owner') =>
  json({
    token,
    full_name: 'The Owner',
    email: `${username}@example.com`,
    username,
    password: 'a long admin passphrase',
    confirm_password: 'a long admin passphrase',
  });
const status = async (token: string) =>
  ((await (await t.app.request('/api/setup/status', json({ token }))).json()) as { valid: boolean }).valid;

describe('the first-start setup link', () => {
  it('is random, stored only as its hash, and opens the setup page', async () => {
    const link = (await issueSetupLink(t.deps))!;
    expect(link).toMatch(/^https:\/\/escrow\.example\/setup\?token=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(link);
    expect(tokenOf((await issueSetupLink(t.deps))!)).not.toBe(token);
    const stored = await t.database.db.selectFrom('setup_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await status(token)).toBe(true);
    expect(await status('not-a-token-that-was-issued')).toBe(false);
  });

  it('creates the first admin once and signs them in; the link (and every other) is refused afterwards', async () => {
    const token = tokenOf((await issueSetupLink(t.deps))!);
    const other = tokenOf((await issueSetupLink(t.deps))!);
    const res = await t.app.request('/api/setup/admin', admin(token));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { access_token: string; user: { role: string; email_verified: boolean } };
    expect(body.user).toMatchObject({ role: 'admin', email_verified: true });
    const me = await t.app.request('/api/auth/me', bearer(body.access_token));
    expect(await me.json()).toMatchObject({ username: 'owner', role: 'admin' });
    expect(
      (await t.app.request('/api/auth/login', json({ username: 'owner', password: 'a long admin passphrase' }))).status,
    ).toBe(200);

    for (const used of [token, other]) {
      expect(await status(used)).toBe(false);
      const again = await t.app.request('/api/setup/admin', admin(used, 'intruder'));
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ code: 'setup_link_invalid' });
    }
    expect(await issueSetupLink(t.deps)).toBeNull();
    const admins = await t.database.db.selectFrom('users').select('username').where('role', '=', 'admin').execute();
    expect(admins).toEqual([{ username: 'owner' }]);
    expect(await t.database.db.selectFrom('setup_tokens').selectAll().execute()).toEqual([]);
  });

  it('lets only one of two simultaneous attempts through', async () => {
    const token = tokenOf((await issueSetupLink(t.deps))!);
    const answers = await Promise.all([
      t.app.request('/api/setup/admin', admin(token, 'first')),
      t.app.request('/api/setup/admin', admin(token, 'second')),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(
      await t.database.db.selectFrom('users').select('username').where('role', '=', 'admin').execute(),
    ).toHaveLength(1);
  });

  it('stops working once an admin exists some other way (ADMIN_* or create-admin)', async () => {
    const token = tokenOf((await issueSetupLink(t.deps))!);
    await ensureAdmin(t.deps, { username: 'root', email: 'root@example.com', password: 'correct horse battery' });
    expect(await status(token)).toBe(false);
    expect((await t.app.request('/api/setup/admin', admin(token))).status).toBe(409);
  });

  it('refuses bad input naming the field, and keeps the link usable', async () => {
    const token = tokenOf((await issueSetupLink(t.deps))!);
    const res = await t.app.request(
      '/api/setup/admin',
      json({
        token,
        full_name: 'Owner',
        email: 'not-an-email',
        username: 'owner',
        password: 'a long admin passphrase',
        confirm_password: 'a long admin passphrase',
      }),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/email/);
    expect(await status(token)).toBe(true);
  });
});
