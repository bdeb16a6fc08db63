import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userAggregate } from '../../../../domain/aggregates.ts';
import { handle } from '../../../commands/handle.ts';
import {
  bearer,
  codeFor,
  form,
  json,
  lastMailTo,
  PASSWORD,
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

/** Every signed-in account route with a well-formed body. */
const signedInRoutes: [string, (token?: string) => RequestInit][] = [
  ['/api/auth/me', (token) => (token ? bearer(token) : { method: 'GET' })],
  ['/api/auth/logout', (token) => (token ? bearer(token, 'POST') : { method: 'POST' })],
  ['/api/auth/setup-2fa', (token) => (token ? bearer(token, 'POST') : { method: 'POST' })],
  ['/api/auth/verify-2fa', (token) => form({ totp_code: '123456' }, token)],
  ['/api/auth/disable-2fa', (token) => form({ totp_code: '123456' }, token)],
  ['/api/auth/recovery-codes', (token) => form({ totp_code: '123456' }, token)],
  ['/api/auth/resend-verification', (token) => (token ? bearer(token, 'POST') : { method: 'POST' })],
  [
    '/api/auth/change-password',
    (token) => json({ current_password: PASSWORD, new_password: 'another password' }, token),
  ],
  ['/api/profile/switch-role', (token) => form({ new_role: 'seller' }, token)],
];

describe('account routes by role', () => {
  it.each(signedInRoutes)('%s: 401 for anonymous and for a dead token', async (path, init) => {
    expect((await t.app.request(path, init())).status).toBe(401);
    expect((await t.app.request(path, init('x'.repeat(43)))).status).toBe(401);
  });

  it.each(signedInRoutes)(
    '%s: 403 Account suspended for a suspended user still holding a token',
    async (path, init) => {
      const ann = await signedInUser(t, 'ann');
      await handle(
        t.deps.store,
        userAggregate,
        ann.id,
        { type: 'suspend', reason: 'Fraud' },
        { actor: 'system', requestId: 'test' },
      );
      const res = await t.app.request(path, init(ann.token));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: 'Account suspended', code: 'forbidden' });
    },
  );
});

describe('resend-verification', () => {
  it('mails a fresh link that works, and refuses once the address is confirmed', async () => {
    const ann = await signedInUser(t, 'ann');
    const first = tokenInMail((await lastMailTo(t, 'ann@example.com')).body);
    const res = await t.app.request('/api/auth/resend-verification', bearer(ann.token, 'POST'));
    expect(res.status).toBe(200);
    const second = tokenInMail((await lastMailTo(t, 'ann@example.com')).body);
    expect(second).not.toBe(first);
    expect((await t.app.request('/api/auth/verify-email', json({ token: second }))).status).toBe(200);
    const again = await t.app.request('/api/auth/resend-verification', bearer(ann.token, 'POST'));
    expect(again.status).toBe(409);
  });
});

describe('2FA changes sign out other sessions', () => {
  it('revokes every other session when 2FA is switched on', async () => {
    const ann = await signedInUser(t, 'ann');
    const elsewhere = await signIn(t, 'ann');
    const { secret } = (await (await t.app.request('/api/auth/setup-2fa', bearer(ann.token, 'POST'))).json()) as {
      secret: string;
    };
    expect((await t.app.request('/api/auth/verify-2fa', form({ totp_code: codeFor(secret) }, ann.token))).status).toBe(
      200,
    );
    expect((await t.app.request('/api/auth/me', bearer(ann.token))).status).toBe(200);
    expect((await t.app.request('/api/auth/me', bearer(elsewhere))).status).toBe(401);
  });
});
