import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  codeFor,
  form,
  json,
  lastMailTo,
  PASSWORD,
  registerUser,
  signedInAdmin,
  signedInUser,
  signIn,
  tokenInMail,
} from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;
const registration = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Ann Buyer',
  email: 'ann@example.com',
  username: 'ann',
  password: PASSWORD,
  confirm_password: PASSWORD,
  ...overrides,
});

describe('POST /api/auth/register', () => {
  it('opens a buyer account by default and mails a verification link', async () => {
    const res = await t.app.request('/api/auth/register', json(registration()));
    expect(res.status).toBe(201);
    const user = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'ann')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'buyer', email_verified: false, is_frozen: false });
    const mail = await lastMailTo(t, 'ann@example.com');
    expect(mail.subject).toBe('Confirm your e-mail address');
    expect(tokenInMail(mail.body)).toHaveLength(43);
  });

  it.each([
    [{ confirm_password: 'something else' }, 422, 'Passwords do not match'],
    [{ role: 'admin' }, 422, 'Registration cannot create an admin'],
    [{ email: 'not-an-email' }, 422, 'email'],
    [{ password: 'short', confirm_password: 'short' }, 422, 'at least 8'],
    [{ full_name: '' }, 422, 'full_name'],
    [{ username: 'a b' }, 422, 'username'],
  ])('refuses %o with %i naming the problem', async (overrides, status, text) => {
    const res = await t.app.request('/api/auth/register', json(registration(overrides)));
    expect(res.status).toBe(status);
    expect(await detail(res)).toContain(text);
    expect(await t.database.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });

  it('refuses a taken username with 409, whatever the case; a known e-mail opens no account', async () => {
    await registerUser(t, 'ann');
    const sameName = await t.app.request(
      '/api/auth/register',
      json(registration({ username: 'ANN', email: 'other@example.com' })),
    );
    expect(sameName.status).toBe(409);
    expect(await detail(sameName)).toBe('That username is taken');
    // A known e-mail is answered as a new one (its owner is mailed instead): nobody learns whose address is registered.
    const sameMail = await t.app.request(
      '/api/auth/register',
      json(registration({ username: 'ann2', email: 'Ann@Example.com' })),
    );
    expect(sameMail.status).toBe(201);
    expect(await t.database.db.selectFrom('users').select('username').execute()).toEqual([{ username: 'ann' }]);
  });

  it('refuses a body that is not JSON with a detail, not a 500', async () => {
    const res = await t.app.request('/api/auth/register', {
      method: 'POST',
      body: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await detail(res)).toBeTruthy();
  });
});

describe('sign-in and sessions', () => {
  it('says the same for an unknown user and a wrong password', async () => {
    await registerUser(t, 'ann');
    const wrong = await t.app.request('/api/auth/login', json({ username: 'ann', password: 'wrong password' }));
    const unknown = await t.app.request('/api/auth/login', json({ username: 'nobody', password: 'wrong password' }));
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await detail(wrong)).toBe('Invalid username or password');
    expect(await detail(unknown)).toBe('Invalid username or password');
  });

  it('returns a token that works until logout', async () => {
    const { token } = await signedInUser(t, 'ann');
    const me = await t.app.request('/api/auth/me', bearer(token));
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'ann', role: 'buyer', totp_enabled: false });
    expect((await t.app.request('/api/auth/logout', bearer(token, 'POST'))).status).toBe(200);
    const after = await t.app.request('/api/auth/me', bearer(token));
    expect(after.status).toBe(401);
    expect(await detail(after)).toBe('Not signed in');
  });

  it('refuses anonymous calls to signed-in routes with 401', async () => {
    for (const [path, method] of [
      ['/api/auth/me', 'GET'],
      ['/api/auth/setup-2fa', 'POST'],
      ['/api/auth/logout', 'POST'],
    ]) {
      expect((await t.app.request(path!, { method })).status).toBe(401);
    }
  });

  it('refuses, with 429 and Retry-After, the 11th failure in a row and then even the right password', async () => {
    await registerUser(t, 'ann');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await t.app.request('/api/auth/login', json({ username: 'ann', password: `wrong ${i}` }))).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    const right = await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD }));
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await detail(right)).toMatch(/Too many failed sign-in attempts; try again in \d+ seconds/);
  });
});

describe('e-mail verification', () => {
  it('confirms the address with the mailed link, once', async () => {
    await registerUser(t, 'ann');
    const token = tokenInMail((await lastMailTo(t, 'ann@example.com')).body);
    const res = await t.app.request('/api/auth/verify-email', json({ token }));
    expect(res.status).toBe(200);
    const user = await t.database.db
      .selectFrom('users')
      .select('email_verified')
      .where('username', '=', 'ann')
      .executeTakeFirstOrThrow();
    expect(user.email_verified).toBe(true);
    const again = await t.app.request('/api/auth/verify-email', json({ token }));
    expect(again.status).toBe(422);
    expect(await detail(again)).toBe('This verification link is invalid or has expired');
  });

  it('refuses a made-up token', async () => {
    const res = await t.app.request('/api/auth/verify-email', json({ token: 'x'.repeat(43) }));
    expect(res.status).toBe(422);
  });
});

describe('two-factor authentication', () => {
  async function withTwoFactor() {
    const { token } = await signedInUser(t, 'ann');
    const setup = await t.app.request('/api/auth/setup-2fa', bearer(token, 'POST'));
    const { secret, qr_code_url, otpauth_url } = (await setup.json()) as Record<string, string>;
    expect(qr_code_url).toMatch(/^data:image\/png;base64,/);
    expect(otpauth_url).toContain('otpauth://totp/');
    const enable = await t.app.request('/api/auth/verify-2fa', form({ totp_code: codeFor(secret!) }, token));
    expect(enable.status).toBe(200);
    const { recovery_codes } = (await enable.json()) as { recovery_codes: string[] };
    return { token, secret: secret!, recoveryCodes: recovery_codes };
  }

  it('asks for the code at sign-in, refuses a wrong one, and accepts each code once', async () => {
    const { secret } = await withTwoFactor();
    const missing = await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD }));
    expect([missing.status, await detail(missing)]).toEqual([401, '2FA code required']);
    const wrong = await t.app.request(
      '/api/auth/login',
      json({ username: 'ann', password: PASSWORD, totp_code: '000000' === codeFor(secret) ? '111111' : '000000' }),
    );
    expect([wrong.status, await detail(wrong)]).toEqual([401, 'Invalid username, password or 2FA code']);
    // The code used at enable time is spent; the next step's code is fresh.
    const next = codeFor(secret, new Date(Date.now() + 30_000));
    expect(
      (await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD, totp_code: next }))).status,
    ).toBe(200);
    const replay = await t.app.request(
      '/api/auth/login',
      json({ username: 'ann', password: PASSWORD, totp_code: next }),
    );
    expect([replay.status, await detail(replay)]).toEqual([401, 'Invalid username, password or 2FA code']);
  });

  it('accepts a recovery code once', async () => {
    const { recoveryCodes } = await withTwoFactor();
    expect(recoveryCodes).toHaveLength(10);
    const code = recoveryCodes[0]!.toLowerCase();
    expect(
      (await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD, totp_code: code }))).status,
    ).toBe(200);
    expect(
      (await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD, totp_code: code }))).status,
    ).toBe(401);
  });

  it('refuses to enable with a wrong code, and disables with a right one', async () => {
    const { token } = await signedInUser(t, 'bob');
    await t.app.request('/api/auth/setup-2fa', bearer(token, 'POST'));
    const bad = await t.app.request('/api/auth/verify-2fa', form({ totp_code: '12345' }, token));
    expect([bad.status, await detail(bad)]).toEqual([422, 'Invalid 2FA code']);
    const { token: annToken, secret } = await withTwoFactor();
    const off = await t.app.request(
      '/api/auth/disable-2fa',
      form({ totp_code: codeFor(secret, new Date(Date.now() + 30_000)) }, annToken),
    );
    expect(off.status).toBe(200);
    expect((await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD }))).status).toBe(200);
  });
});

describe('profile and passwords', () => {
  it('switches between buyer and seller, never to or from admin', async () => {
    const { token } = await signedInUser(t, 'ann');
    const res = await t.app.request('/api/profile/switch-role', form({ new_role: 'seller' }, token));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ role: 'seller' });
    expect((await t.app.request('/api/profile/switch-role', form({ new_role: 'admin' }, token))).status).toBe(403);
    expect((await t.app.request('/api/profile/switch-role', form({ new_role: 'seller' }, token))).status).toBe(422);
    const admin = await signedInAdmin(t);
    const refused = await t.app.request('/api/profile/switch-role', form({ new_role: 'buyer' }, admin.token));
    expect([refused.status, await detail(refused)]).toEqual([403, 'Admin role cannot be changed']);
  });

  it('changes the password and signs out the other sessions', async () => {
    const { token } = await signedInUser(t, 'ann');
    const other = await signIn(t, 'ann');
    const wrong = await t.app.request(
      '/api/auth/change-password',
      json({ current_password: 'nope nope', new_password: 'brand new pass' }, token),
    );
    expect(wrong.status).toBe(403);
    const res = await t.app.request(
      '/api/auth/change-password',
      json({ current_password: PASSWORD, new_password: 'brand new pass' }, token),
    );
    expect(res.status).toBe(200);
    expect((await t.app.request('/api/auth/me', bearer(token))).status).toBe(200);
    expect((await t.app.request('/api/auth/me', bearer(other))).status).toBe(401);
    await signIn(t, 'ann', 'brand new pass');
  });
});
