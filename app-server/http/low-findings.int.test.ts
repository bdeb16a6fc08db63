import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueSetupLink } from '../accounts/first-admin-setup.ts';
import {
  bearer,
  codeFor,
  enableTwoFactorFor,
  freshCode,
  json,
  PASSWORD,
  signedInAdmin,
  signedInUser,
} from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * The low findings of the third outside probe: a setup answer kept for replay, integer query fields read the way
 * JavaScript's Number() reads them, registration telling a known e-mail apart, and sign-in telling a right password
 * apart on an account with 2FA.
 */
let t: TestApp;
beforeAll(async () => {
  // A hash cost where hashing, not the database, is most of a registration's time (as in production).
  t = await openTestApp({ PASSWORD_HASH_COST: '14', RATE_LIMIT_REGISTER: '1000', RATE_LIMIT_LOGIN: '1000' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const body = async (res: Response) => (await res.json()) as { detail: string; code?: string } & Record<string, unknown>;

describe('the setup answer', () => {
  it('is never kept for replay, even with an Idempotency-Key', async () => {
    const token = new URL((await issueSetupLink(t.deps))!).searchParams.get('token')!;
    const res = await t.app.request(
      '/api/setup/admin',
      json(
        {
          token,
          full_name: 'The Owner',
          email: 'owner@example.com',
          username: 'owner',
          password: 'a long admin passphrase',
          confirm_password: 'a long admin passphrase',
        },
        undefined,
        { 'idempotency-key': 'setup-1' },
      ),
    );
    expect(res.status).toBe(201);
    const { access_token } = (await res.json()) as { access_token: string };
    const kept = await t.database.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(kept)).not.toContain(access_token);
    expect(kept).toEqual([]);
  });
});

describe('integer query fields', () => {
  const odd = ['0x10', '1e1', '0b11', '+5', ' 5', '5.0', '-1', ''];
  it.each([
    ['/api/admin/escrows', 'limit'],
    ['/api/admin/escrows', 'offset'],
    ['/api/admin/audit-logs', 'limit'],
    ['/api/admin/audit-logs', 'before'],
    ['/api/admin/events', 'after'],
    ['/api/admin/events/export', 'from'],
    ['/api/reviews', 'skip'],
  ])('%s?%s= takes plain decimal digits only, refusing others with 422 naming the field', async (path, field) => {
    const admin = await signedInAdmin(t);
    for (const value of odd) {
      const res = await t.app.request(`${path}?${field}=${encodeURIComponent(value)}`, bearer(admin.token));
      expect([value, res.status]).toEqual([value, 422]);
      expect((await body(res)).detail).toContain(field);
    }
    expect((await t.app.request(`${path}?${field}=5`, bearer(admin.token))).status).toBe(200);
  });
});

describe('registration', () => {
  const registration = (username: string, email: string) =>
    json({ full_name: 'Someone', email, username, password: PASSWORD, confirm_password: PASSWORD, role: 'buyer' });

  it('answers a known e-mail as it answers a new one, in about the same time, and mails the owner instead', async () => {
    await signedInUser(t, 'ann');
    const timed = async (username: string, email: string) => {
      const started = performance.now();
      const res = await t.app.request('/api/auth/register', registration(username, email));
      return { ms: performance.now() - started, status: res.status, body: await body(res) };
    };
    const known: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < 5; i++) {
      const a = await timed(`known${i}`, 'Ann@Example.com');
      const b = await timed(`new${i}`, `new${i}@example.com`);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
      expect(a.body.detail).toBe(b.body.detail);
      known.push(a.ms);
      fresh.push(b.ms);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    expect(median(known)).toBeGreaterThan(median(fresh) * 0.5);
    expect(median(known)).toBeLessThan(median(fresh) * 2);

    // No account was opened with ann's address; ann hears that someone tried.
    const users = await t.database.db
      .selectFrom('users')
      .select('username')
      .where('email', '=', 'ann@example.com')
      .execute();
    expect(users).toEqual([{ username: 'ann' }]);
    expect(
      await t.database.db.selectFrom('users').select('username').where('username', 'like', 'known%').execute(),
    ).toEqual([]);
    const mails = await t.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'ann@example.com')
      .orderBy('id')
      .execute();
    expect(mails.at(-1)!.subject).toBe('Someone tried to register with your e-mail address');
    // Signing in with the would-be account fails like any unknown username.
    expect((await t.app.request('/api/auth/login', json({ username: 'known0', password: PASSWORD }))).status).toBe(401);
  });

  it('still refuses a username that is taken (usernames are shown to other people)', async () => {
    await signedInUser(t, 'ann');
    const res = await t.app.request('/api/auth/register', registration('ann', 'other@example.com'));
    expect(res.status).toBe(409);
  });
});

describe('sign-in to an account with 2FA', () => {
  it('answers a wrong password as it answers the right one, with or without a code', async () => {
    const ann = await signedInUser(t, 'ann');
    const { secret } = await enableTwoFactorFor(t, ann.token);
    const attempt = async (password: string, totp_code?: string) => {
      const res = await t.app.request(
        '/api/auth/login',
        json({ username: 'ann', password, ...(totp_code ? { totp_code } : {}) }),
      );
      return [res.status, await body(res)] as const;
    };
    const right = await attempt(PASSWORD);
    const wrong = await attempt('not the password');
    expect(right).toEqual([401, { detail: '2FA code required', code: 'totp_required' }]);
    expect(wrong).toEqual(right);

    const wrongCode = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    const rightPasswordWrongCode = await attempt(PASSWORD, wrongCode);
    const wrongPasswordWrongCode = await attempt('not the password', wrongCode);
    expect(rightPasswordWrongCode[0]).toBe(401);
    expect(wrongPasswordWrongCode).toEqual(rightPasswordWrongCode);

    // The web form's flow still works: no code, asked for it, then the right pair signs in.
    expect(
      (
        await t.app.request(
          '/api/auth/login',
          json({ username: 'ann', password: PASSWORD, totp_code: await freshCode(t, ann.id, secret) }),
        )
      ).status,
    ).toBe(200);
  });

  it('says Invalid username or password on an account without 2FA, as before', async () => {
    await signedInUser(t, 'sam', 'seller');
    const res = await t.app.request('/api/auth/login', json({ username: 'sam', password: 'not the password' }));
    expect([res.status, (await body(res)).detail]).toEqual([401, 'Invalid username or password']);
  });
});
