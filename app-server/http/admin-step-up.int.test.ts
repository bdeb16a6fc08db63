import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  codeFor,
  enableTwoFactorFor,
  form,
  freshCode,
  json,
  signedInAdmin,
  signedInUser,
} from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * Step-up for admin powers (ADMIN_2FA_REQUIRED on, as in production): every power asks an admin with 2FA for a fresh
 * code, and an admin without 2FA has no power at all until they switch it on; a stolen admin session alone moves
 * nothing and grants nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ ADMIN_2FA_REQUIRED: 'true' });
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const ZERO = '00000000-0000-4000-8000-000000000000';
const body = async (res: Response) => (await res.json()) as { detail: string; code: string };
type Call = { name: string; method: string; path: string; fields: Record<string, string> };

/** Every admin power, each with a body the route accepts. */
function powers(target: { userId: string; addressId: string; escrowId: string; disputeId: string }): Call[] {
  const escrow = (action: string, fields: Record<string, string> = {}): Call => ({
    name: action,
    method: 'POST',
    path: `/api/admin/escrows/${target.escrowId}/${action}`,
    fields,
  });
  return [
    escrow('verify-payment', { verified: 'true' }),
    escrow('release', { notes: '' }),
    escrow('refund', { notes: '' }),
    escrow('freeze', { reason: 'Check' }),
    escrow('unfreeze', { reason: 'Fine' }),
    escrow('assign-address', { address_id: target.addressId }),
    {
      name: 'resolve',
      method: 'POST',
      path: `/api/admin/disputes/${target.disputeId}/resolve`,
      fields: { outcome: 'Done' },
    },
    { name: 'role change', method: 'PUT', path: `/api/admin/users/${target.userId}`, fields: { role: 'admin' } },
    { name: 'suspend', method: 'POST', path: `/api/admin/users/${target.userId}/suspend`, fields: { reason: 'Abuse' } },
    { name: 'unsuspend', method: 'POST', path: `/api/admin/users/${target.userId}/unsuspend`, fields: {} },
    {
      name: 'reset-password',
      method: 'POST',
      path: `/api/admin/users/${target.userId}/reset-password`,
      fields: { temporary_password: 'a temporary one' },
    },
    { name: 'delete user', method: 'DELETE', path: `/api/admin/users/${target.userId}`, fields: {} },
    {
      name: 'rate and fee',
      method: 'PUT',
      path: '/api/admin/btc-rate',
      fields: { btc_usd_rate: '60000', fee_percentage: '2' },
    },
    { name: 'pool add', method: 'POST', path: '/api/admin/addresses', fields: { address_string: freshAddress() } },
    {
      name: 'pool edit',
      method: 'PUT',
      path: `/api/admin/addresses/${target.addressId}`,
      fields: { address_string: freshAddress() },
    },
    { name: 'pool delete', method: 'DELETE', path: `/api/admin/addresses/${target.addressId}`, fields: {} },
  ];
}
const send = (call: Call, token: string, extra: Record<string, string> = {}) =>
  t.app.request(call.path, form({ ...call.fields, ...extra }, token, call.method));

describe('admin powers need a second factor', () => {
  it('an admin without 2FA can sign in and read, but use no power until 2FA is on (403, admin_totp_not_enabled)', async () => {
    const admin = await signedInAdmin(t);
    const target = await signedInUser(t, 'ann');
    expect((await t.app.request('/api/admin/users', bearer(admin.token))).status).toBe(200);
    for (const call of powers({ userId: target.id, addressId: ZERO, escrowId: ZERO, disputeId: ZERO })) {
      const res = await send(call, admin.token);
      expect([call.name, res.status]).toEqual([call.name, 403]);
      const answer = await body(res);
      expect(answer.code).toBe('admin_totp_not_enabled');
      expect(answer.detail).toMatch(/set up two-factor authentication on your profile page/);
      expect(answer.detail).not.toMatch(/totp_code/); // people read it: no API field names
    }
    const user = await t.database.db
      .selectFrom('users')
      .select(['role', 'is_frozen'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ role: 'buyer', is_frozen: false });
    expect(
      (await t.database.db.selectFrom('settings').select('rate_cents').executeTakeFirst())?.rate_cents ?? null,
    ).toBeNull();
    expect(await t.database.db.selectFrom('addresses').select('id').execute()).toEqual([]);
    // The first admin switches 2FA on, then acts with a code.
    const { secret } = await enableTwoFactorFor(t, admin.token);
    const rate = await t.app.request(
      '/api/admin/btc-rate',
      form({ btc_usd_rate: '50000', totp_code: await freshCode(t, admin.id, secret) }, admin.token, 'PUT'),
    );
    expect(rate.status).toBe(200);
  });

  it('with 2FA on, every power asks for a fresh code: none, wrong or used are refused and change nothing', async () => {
    const admin = await signedInAdmin(t);
    const { secret } = await enableTwoFactorFor(t, admin.token);
    const target = await signedInUser(t, 'ann');
    for (const call of powers({ userId: target.id, addressId: ZERO, escrowId: ZERO, disputeId: ZERO })) {
      const res = await send(call, admin.token);
      const answer = await body(res);
      expect([call.name, res.status, answer.code]).toEqual([call.name, 422, 'totp_required']);
      expect(answer.detail).toBe(
        'A 2FA code is required: every admin power needs a fresh code from your authenticator app',
      );
    }
    const promote = {
      name: 'role change',
      method: 'PUT',
      path: `/api/admin/users/${target.id}`,
      fields: { role: 'admin' },
    };
    const wrong = await send(promote, admin.token, { totp_code: codeFor(secret, new Date(Date.now() - 10 * 60_000)) });
    expect([wrong.status, (await body(wrong)).code]).toEqual([422, 'totp_invalid']);
    expect(
      (await t.database.db.selectFrom('users').select('role').where('id', '=', target.id).executeTakeFirstOrThrow())
        .role,
    ).toBe('buyer');

    const code = await freshCode(t, admin.id, secret);
    expect((await send(promote, admin.token, { totp_code: code })).status).toBe(200);
    expect(
      (await t.database.db.selectFrom('users').select('role').where('id', '=', target.id).executeTakeFirstOrThrow())
        .role,
    ).toBe('admin');
    // The same code again: used.
    const again = await send({ ...promote, fields: { full_name: 'Ann Admin' } }, admin.token, { totp_code: code });
    expect([again.status, (await body(again)).code]).toEqual([422, 'totp_invalid']);
    // JSON bodies and a DELETE without a body (the code in X-TOTP-Code) are asked the same.
    const json404 = await t.app.request('/api/admin/btc-rate', {
      ...json({ btc_usd_rate: '1' }, admin.token),
      method: 'PUT',
    });
    expect((await body(json404)).code).toBe('totp_required');
    const removed = await t.app.request(`/api/admin/users/${target.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin.token}`, 'x-totp-code': await freshCode(t, admin.id, secret) },
    });
    expect(removed.status).toBe(200);
  });

  it('a promoted admin without 2FA cannot release money; reads and moderation stay open', async () => {
    const admin = await signedInAdmin(t);
    await enableTwoFactorFor(t, admin.token);
    const other = await signedInAdmin(t, 'second');
    const res = await t.app.request(`/api/admin/escrows/${ZERO}/release`, form({ notes: '' }, other.token));
    expect([res.status, (await body(res)).code]).toEqual([403, 'admin_totp_not_enabled']);
    expect((await t.app.request('/api/admin/escrows', bearer(other.token))).status).toBe(200);
    expect((await t.app.request('/api/admin/reviews/pending', bearer(other.token))).status).toBe(200);
  });

  it('with ADMIN_2FA_REQUIRED off, an admin without 2FA needs no code (contract: no 2FA, no code)', async () => {
    const t2 = await openTestApp({ ADMIN_2FA_REQUIRED: 'false' });
    try {
      const admin = await signedInAdmin(t2);
      expect(
        (await t2.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '50000' }, admin.token, 'PUT'))).status,
      ).toBe(200);
    } finally {
      await t2.close();
    }
  });
});
