import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escrowAggregate, userAggregate } from '../../../../domain/aggregates.ts';
import { handle } from '../../../commands/handle.ts';
import { bearer, form, json, PASSWORD, signedInAdmin, signedInUser, signIn } from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

describe('admin user management: who may call', () => {
  it('answers anonymous with 401 and buyers and sellers with 403 on every admin route', async () => {
    const buyer = await signedInUser(t, 'ann', 'buyer');
    const seller = await signedInUser(t, 'sam', 'seller');
    const target = buyer.id;
    const calls: [string, RequestInit][] = [
      ['/api/admin/users', { method: 'GET' }],
      [`/api/admin/users/${target}`, form({ full_name: 'X' }, undefined, 'PUT')],
      [`/api/admin/users/${target}/suspend`, form({ reason: 'x' })],
      [`/api/admin/users/${target}/unsuspend`, { method: 'POST' }],
      [`/api/admin/users/${target}`, { method: 'DELETE' }],
      [`/api/admin/users/${target}/reset-password`, form({ temporary_password: 'temporary pass' })],
    ];
    for (const [path, init] of calls) {
      expect((await t.app.request(path, init)).status, `anonymous ${init.method} ${path}`).toBe(401);
      for (const who of [buyer, seller]) {
        const headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${who.token}` };
        const res = await t.app.request(path, { ...init, headers });
        expect(res.status, `${init.method} ${path}`).toBe(403);
        expect(await detail(res)).toBe('Admins only');
      }
    }
  });
});

describe('admin user management: what it does', () => {
  it('lists users without any secret', async () => {
    await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    const res = await t.app.request('/api/admin/users', bearer(admin.token));
    const users = (await res.json()) as Record<string, unknown>[];
    expect(users.map((u) => u.username).sort()).toEqual(['ann', 'root']);
    // The one field that names a password says only whether it must be changed.
    expect(users.map((u) => u.must_change_password)).toEqual([false, false]);
    expect(JSON.stringify(users.map(({ must_change_password: _flag, ...u }) => u))).not.toMatch(
      /password|secret|scrypt/i,
    );
  });

  it('updates only the non-empty fields', async () => {
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    const res = await t.app.request(
      `/api/admin/users/${ann.id}`,
      form({ full_name: 'Ann Smith', email: '', role: 'seller' }, admin.token, 'PUT'),
    );
    expect([res.status, await detail(res)]).toEqual([200, 'User updated successfully']);
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', ann.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ full_name: 'Ann Smith', email: 'ann@example.com', role: 'seller' });
    const nothing = await t.app.request(
      `/api/admin/users/${ann.id}`,
      form({ full_name: '', email: '', role: '' }, admin.token, 'PUT'),
    );
    expect(nothing.status).toBe(422);
  });

  it('refuses an e-mail address too long for any mailbox with 422 naming the field, changing nothing', async () => {
    // Seen from outside: a 262-character address passed the e-mail check and failed the event's schema with a 500.
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    const res = await t.app.request(
      `/api/admin/users/${ann.id}`,
      form({ full_name: 'Ann Smith', email: `${'a'.repeat(250)}@example.com` }, admin.token, 'PUT'),
    );
    expect([res.status, await detail(res)]).toEqual([422, 'email must be at most 254 characters']);
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', ann.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ full_name: 'ann Example', email: 'ann@example.com' });
  });

  it('suspends: the user is signed out, refused with 403 at sign-in, and back after unsuspend', async () => {
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    const noReason = await t.app.request(`/api/admin/users/${ann.id}/suspend`, form({ reason: '  ' }, admin.token));
    expect(noReason.status).toBe(422);
    expect(
      (await t.app.request(`/api/admin/users/${ann.id}/suspend`, form({ reason: 'Chargeback fraud' }, admin.token)))
        .status,
    ).toBe(200);
    expect((await t.app.request('/api/auth/me', bearer(ann.token))).status).toBe(401);
    const login = await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD }));
    expect([login.status, await detail(login)]).toEqual([403, 'Account suspended']);
    expect((await t.app.request(`/api/admin/users/${ann.id}/unsuspend`, bearer(admin.token, 'POST'))).status).toBe(200);
    await signIn(t, 'ann');
  });

  it('stops a suspended user who still holds a token with 403 on every call', async () => {
    const ann = await signedInUser(t, 'ann');
    // The suspension recorded through the event store alone, with the session still open.
    await handle(
      t.deps.store,
      userAggregate,
      ann.id,
      { type: 'suspend', reason: 'Fraud' },
      { actor: 'system', requestId: 'test' },
    );
    const res = await t.app.request('/api/auth/me', bearer(ann.token));
    expect([res.status, await detail(res)]).toEqual([403, 'Account suspended']);
  });

  it('never lets an admin suspend, demote or delete themselves', async () => {
    const admin = await signedInAdmin(t);
    expect(
      (await t.app.request(`/api/admin/users/${admin.id}/suspend`, form({ reason: 'oops' }, admin.token))).status,
    ).toBe(403);
    expect(
      (await t.app.request(`/api/admin/users/${admin.id}`, form({ role: 'buyer' }, admin.token, 'PUT'))).status,
    ).toBe(403);
    expect((await t.app.request(`/api/admin/users/${admin.id}`, bearer(admin.token, 'DELETE'))).status).toBe(403);
  });

  it('lets an admin make another admin', async () => {
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    expect(
      (await t.app.request(`/api/admin/users/${ann.id}`, form({ role: 'admin' }, admin.token, 'PUT'))).status,
    ).toBe(200);
    expect((await t.app.request('/api/admin/users', bearer(ann.token))).status).toBe(200);
  });

  it('refuses to delete a party to an unfinished escrow, and deletes otherwise', async () => {
    const ann = await signedInUser(t, 'ann');
    const bob = await signedInUser(t, 'bob');
    const admin = await signedInAdmin(t);
    const escrowId = randomUUID();
    await handle(
      t.deps.store,
      escrowAggregate,
      escrowId,
      {
        type: 'create',
        by: 'buyer',
        escrow_id: escrowId,
        created_by: ann.id,
        creator_side: 'buyer',
        creator_email: 'ann@example.com',
        counterparty_email: 'sam@example.com',
        product_service: 'Desk',
        description: 'Oak desk',
        amount_cents: 10_000,
        deadline_days: 7,
        pricing: { rate_cents: 5_000_000, fee_bps: 150 },
      },
      { actor: ann.id, requestId: 'test' },
    );
    const refused = await t.app.request(`/api/admin/users/${ann.id}`, bearer(admin.token, 'DELETE'));
    expect(refused.status).toBe(409);
    expect(await detail(refused)).toContain('escrow that is not finished');
    const deleted = await t.app.request(`/api/admin/users/${bob.id}`, bearer(admin.token, 'DELETE'));
    expect([deleted.status, await detail(deleted)]).toEqual([200, 'User deleted successfully']);
    expect((await t.app.request('/api/auth/me', bearer(bob.token))).status).toBe(401);
    expect((await t.app.request(`/api/admin/users/${bob.id}`, bearer(admin.token, 'DELETE'))).status).toBe(404);
  });

  it('resets a password: old sessions end, the temporary password signs in', async () => {
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    const res = await t.app.request(
      `/api/admin/users/${ann.id}/reset-password`,
      form({ temporary_password: 'temporary pass 1' }, admin.token),
    );
    expect(res.status).toBe(200);
    expect((await t.app.request('/api/auth/me', bearer(ann.token))).status).toBe(401);
    await signIn(t, 'ann', 'temporary pass 1');
  });

  it('after a reset, the temporary password opens nothing but me, change-password and logout until it is changed', async () => {
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    await t.app.request(
      `/api/admin/users/${ann.id}/reset-password`,
      form({ temporary_password: 'temporary pass 1' }, admin.token),
    );
    const login = await t.app.request('/api/auth/login', json({ username: 'ann', password: 'temporary pass 1' }));
    const { access_token: token, user } = (await login.json()) as {
      access_token: string;
      user: { must_change_password: boolean };
    };
    expect(user.must_change_password).toBe(true);

    const me = await t.app.request('/api/auth/me', bearer(token));
    expect([me.status, ((await me.json()) as { must_change_password: boolean }).must_change_password]).toEqual([
      200,
      true,
    ]);
    const refused = [
      await t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Camera',
            description: 'Mirrorless',
            amount_usd: '10.00',
            seller_email: 'sam@example.com',
          },
          token,
        ),
      ),
      await t.app.request('/api/escrows', bearer(token)),
      await t.app.request('/api/auth/setup-2fa', bearer(token, 'POST')),
      await t.app.request('/api/profile/switch-role', form({ new_role: 'seller' }, token)),
      await t.app.request(
        '/api/reviews',
        json({ name: 'Ann', country: 'NO', rating: 5, text: 'Great', terms_accepted: true }, token),
      ),
    ];
    for (const res of refused) {
      expect([res.status, await res.json()]).toEqual([
        403,
        {
          detail: 'Change your temporary password first (POST /api/auth/change-password)',
          code: 'password_change_required',
        },
      ]);
    }
    expect(await t.database.db.selectFrom('escrows').select('id').execute()).toEqual([]);

    const changed = await t.app.request(
      '/api/auth/change-password',
      json({ current_password: 'temporary pass 1', new_password: 'my own new password' }, token),
    );
    expect(changed.status).toBe(200);
    const after = await t.app.request('/api/escrows', bearer(token));
    expect(after.status).toBe(200);
    expect(
      ((await (await t.app.request('/api/auth/me', bearer(token))).json()) as { must_change_password: boolean })
        .must_change_password,
    ).toBe(false);
    expect((await t.app.request('/api/auth/logout', bearer(token, 'POST'))).status).toBe(200);
  });

  it('a session holding a temporary password may still sign out', async () => {
    const ann = await signedInUser(t, 'ann');
    const admin = await signedInAdmin(t);
    await t.app.request(
      `/api/admin/users/${ann.id}/reset-password`,
      form({ temporary_password: 'temporary pass 1' }, admin.token),
    );
    const token = await signIn(t, 'ann', 'temporary pass 1');
    expect((await t.app.request('/api/auth/logout', bearer(token, 'POST'))).status).toBe(200);
    expect((await t.app.request('/api/auth/me', bearer(token))).status).toBe(401);
  });

  it('answers 404 for an unknown user and 422 for a malformed id', async () => {
    const admin = await signedInAdmin(t);
    expect(
      (await t.app.request(`/api/admin/users/${randomUUID()}/unsuspend`, bearer(admin.token, 'POST'))).status,
    ).toBe(404);
    expect((await t.app.request('/api/admin/users/42/unsuspend', bearer(admin.token, 'POST'))).status).toBe(422);
  });
});
