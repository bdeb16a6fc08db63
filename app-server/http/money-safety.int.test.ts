import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  codeFor,
  enableTwoFactorFor,
  form,
  freshCode,
  json,
  lastMailTo,
  PASSWORD,
  registerUser,
  signIn,
  signedInAdmin,
  tokenInMail,
} from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openFundedDeal, openMarket } from '../testing/market.ts';
import { tamperWith } from '../testing/tamper.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * Money safety, tested as an attacker holding one stolen session would try it: guessing second-factor codes and
 * passwords (also N at once: on PostgreSQL they really run concurrently), swapping payout addresses, opening escrows
 * in bulk, taking over a deleted user's deals by registering their e-mail again, replaying an old dispute id, and
 * moving money while the records were changed under the server.
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ RATE_LIMIT_ESCROWS: '3' });
});
beforeEach(async () => {
  await t.database.reset();
  t.deps.chainWatch?.forget();
});
afterAll(async () => t.close());

type Escrow = Record<string, unknown> & { id: string; status: string };
const body = async (res: Response) => (await res.json()) as { detail: string; code: string } & Record<string, unknown>;
const mailsTo = (to: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
const PAYOUT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const REFUND = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/** A funded deal between ann (buyer) and sam (seller), the admin `root` without 2FA. */
const fundedDeal = (options: { payout?: string; refund?: string } = {}) => openFundedDeal(t, options);

describe('one counter of wrong second-factor codes per user', () => {
  it('locks every code-gated action after five wrong codes across actions, mails the user and records it', async () => {
    const { buyer } = await openMarket(t);
    const { secret, recovery } = await enableTwoFactorFor(t, buyer.token);
    const wrong = codeFor(secret, new Date(Date.now() - 10 * 60_000)); // a code from ten minutes ago
    const answers = [
      await t.app.request('/api/auth/disable-2fa', form({ totp_code: wrong }, buyer.token)),
      await t.app.request('/api/auth/disable-2fa', form({ totp_code: 'AAAA-BBBB-CCCC-DDDD' }, buyer.token)), // a wrong recovery code counts too
      await t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Pen',
            description: 'A pen',
            amount_usd: '10',
            seller_email: 'sam@example.com',
            totp_code: wrong,
          },
          buyer.token,
        ),
      ),
      await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD, totp_code: wrong })),
      await t.app.request('/api/auth/disable-2fa', form({ totp_code: wrong }, buyer.token)),
    ];
    expect(answers.map((a) => a.status)).toEqual([422, 422, 422, 401, 422]);
    for (const a of answers) expect((await body(a)).code).toBe('totp_invalid');

    // Locked now: the right code, a recovery code and the right sign-in are all refused with 429.
    const locked = [
      await t.app.request('/api/auth/disable-2fa', form({ totp_code: codeFor(secret) }, buyer.token)),
      await t.app.request('/api/auth/disable-2fa', form({ totp_code: recovery[0]! }, buyer.token)),
      await t.app.request(
        '/api/escrows',
        json(
          {
            product_service: 'Pen',
            description: 'A pen',
            amount_usd: '10',
            seller_email: 'sam@example.com',
            totp_code: codeFor(secret),
          },
          buyer.token,
        ),
      ),
      await t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD, totp_code: codeFor(secret) })),
    ];
    for (const res of locked) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await body(res)).code).toBe('totp_locked');
    }
    const lockMails = (await mailsTo('ann@example.com')).filter((m) => /2FA/.test(m.subject));
    expect(lockMails.map((m) => m.subject)).toEqual(['Your account: too many wrong 2FA codes']);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action_type', '=', 'TwoFactorLocked')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ object_id: buyer.id, actor_user_id: buyer.id });
  });

  it("an admin's wrong codes on money actions count, and the other admins are told", async () => {
    const { admin, id } = await fundedDeal({ payout: PAYOUT });
    const { secret } = await enableTwoFactorFor(t, admin.token);
    await signedInAdmin(t, 'second');
    const wrong = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '', totp_code: wrong }, admin.token)))
          .status,
      );
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429]);
    const right = await t.app.request(
      `/api/admin/escrows/${id}/release`,
      form({ notes: '', totp_code: await freshCode(t, admin.id, secret) }, admin.token),
    );
    expect(right.status).toBe(429);
    expect((await mailsTo('second@example.com')).map((m) => m.subject)).toContain(
      'Admin account: too many wrong 2FA codes',
    );
    const escrow = await t.database.db
      .selectFrom('escrows')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(escrow.status).toBe('funded');
  });

  it('N concurrent wrong codes check at most five (PostgreSQL runs them at once)', async () => {
    const { buyer } = await openMarket(t);
    const { secret } = await enableTwoFactorFor(t, buyer.token);
    const wrong = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => t.app.request('/api/auth/disable-2fa', form({ totp_code: wrong }, buyer.token))),
    );
    const statuses = answers.map((a) => a.status);
    expect(count(statuses, 422)).toBeLessThanOrEqual(5);
    expect(count(statuses, 422) + count(statuses, 429)).toBe(30);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('action_type', '=', 'TwoFactorLocked')
      .execute();
    expect(audit.length).toBeLessThanOrEqual(1);
  });
});

describe('sign-in and passwords', () => {
  it('N concurrent wrong passwords from one address check at most the limit', async () => {
    await registerUser(t, 'ann');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.request('/api/auth/login', json({ username: 'ann', password: `wrong ${i}` })),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(count(statuses, 401)).toBeLessThanOrEqual(10);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(30);
  });

  it('failures of an account from many addresses slow it and alert, but never lock the right password out elsewhere', async () => {
    const t2 = await openTestApp({ TRUST_PROXY: 'unknown', RATE_LIMIT_LOGIN: '3' });
    try {
      await signedInAdmin(t2, 'root');
      await signedInAdmin(t2, 'other');
      const from = (address: string, password: string) =>
        t2.app.request('/api/auth/login', {
          ...json({ username: 'root', password }),
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await from(`203.0.113.${i}`, 'wrong password')).status);
      expect(statuses).toEqual(Array(4).fill(401));
      // The owner, from another address, gets in (slowed down): nobody can lock an account out from elsewhere.
      const started = Date.now();
      expect((await from('192.0.2.1', PASSWORD)).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      const alerts = await t2.database.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'subject'])
        .where('subject', 'like', '%many failed sign-ins')
        .execute();
      expect(alerts).toEqual(
        expect.arrayContaining([
          { to_address: 'root@example.com', subject: 'Your account: many failed sign-ins' },
          { to_address: 'other@example.com', subject: 'Admin account: many failed sign-ins' },
        ]),
      );
      expect(alerts).toHaveLength(2);
    } finally {
      await t2.close();
    }
  });

  it('change-password has a per-user limit, counted before the hash (also N at once)', async () => {
    await registerUser(t, 'ann');
    const token = await signIn(t, 'ann');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        t.app.request(
          '/api/auth/change-password',
          json({ current_password: `wrong ${i}`, new_password: 'another long one' }, token),
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(count(statuses, 403)).toBeLessThanOrEqual(10);
    expect(count(statuses, 403) + count(statuses, 429)).toBe(25);
    const right = await t.app.request(
      '/api/auth/change-password',
      json({ current_password: PASSWORD, new_password: 'another long one' }, token),
    );
    expect(right.status).toBe(429);
  });

  it('answers 503 with Retry-After when too many password hashes wait for their turn', async () => {
    const t2 = await openTestApp({
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE_MS: '0',
      PASSWORD_HASH_COST: '16',
    });
    try {
      await registerUser(t2, 'ann');
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          t2.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD })),
        ),
      );
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0]!.headers.get('retry-after')).toBe('1');
      expect((await body(busy[0]!)).detail).toMatch(/Too many sign-ins at once/);
      // Refused for being busy is not a failed sign-in: the right password works right after.
      expect((await t2.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD }))).status).toBe(200);
    } finally {
      await t2.close();
    }
  });
});

describe('abuse limits on opening escrows', () => {
  const open = (token: string, fields: Record<string, unknown> = {}) =>
    t.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Pen',
          description: 'A pen',
          amount_usd: '10.00',
          seller_email: 'sam@example.com',
          ...fields,
        },
        token,
      ),
    );

  it('needs a verified e-mail address', async () => {
    await openMarket(t);
    await registerUser(t, 'eve');
    const res = await open(await signIn(t, 'eve'));
    expect(res.status).toBe(403);
    const answer = await body(res);
    expect(answer.code).toBe('email_unverified');
    expect(answer.detail).toMatch(/Confirm your e-mail address/);
    expect(await t.database.db.selectFrom('escrows').select('id').execute()).toHaveLength(0);
  });

  it('refuses amounts under MIN_ESCROW_USD and at or under the dust limit', async () => {
    const { admin, buyer } = await openMarket(t);
    const small = await open(buyer.token, { amount_usd: '0.99' });
    expect([small.status, (await body(small)).detail]).toEqual([422, 'amount_usd must be at least 1.00']);
    await t.app.request('/api/admin/btc-rate', form({ btc_usd_rate: '200000' }, admin.token, 'PUT')); // $1.02 is 510 sats
    const dust = await open(buyer.token, { amount_usd: '1.00' });
    expect(dust.status).toBe(422);
    expect((await body(dust)).detail).toMatch(/amount_usd is too small: 510 satoshis/);
  });

  it('limits escrows per user per hour (RATE_LIMIT_ESCROWS), also when sent at once', async () => {
    const { buyer } = await openMarket(t);
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(buyer.token)));
    const statuses = answers.map((a) => a.status);
    expect(count(statuses, 201)).toBe(3);
    expect(count(statuses, 429)).toBe(5);
    expect(answers.find((a) => a.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await t.database.db.selectFrom('escrows').select('id').execute()).toHaveLength(3);
  });

  it('puts no user text in mail subjects and marks it in bodies', async () => {
    const { buyer } = await openMarket(t);
    await t.database.db
      .updateTable('users')
      .set({ full_name: 'Your bank: verify at http://evil.example/login' })
      .where('id', '=', buyer.id)
      .execute();
    const me = await t.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Urgent: reset your password',
          description: 'x',
          amount_usd: '10.00',
          seller_email: 'victim@example.com',
        },
        buyer.token,
      ),
    );
    expect(me.status).toBe(201);
    const invitation = await lastMailTo(t, 'victim@example.com');
    expect(invitation.subject).toBe('You are invited to an escrow');
    expect(invitation.body).toContain(
      'Their name (their own words, not checked by us):\n> Your bank: verify at http://evil.example/login',
    );
    expect(invitation.body).toContain(
      'What it is for (their own words, not checked by us):\n> Urgent: reset your password',
    );
    const subjects = await t.database.db.selectFrom('mail_outbox').select('subject').execute();
    for (const { subject } of subjects) expect(subject).not.toMatch(/evil|Urgent/);
  });

  it('mails the admins about an empty pool at most once an hour', async () => {
    const { admin, buyer } = await openMarket(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await (await open(buyer.token)).json()) as Escrow).id);
    for (const id of ids)
      expect((await t.app.request(`/api/escrows/${id}/request-payment`, bearer(buyer.token, 'POST'))).status).toBe(409);
    const empty = (await mailsTo('root@example.com')).filter((m) => m.subject === 'The payment address pool is empty');
    expect(empty).toHaveLength(1);
    // A pool flapping around the threshold within the hour: the low-pool alert also goes out once.
    for (let i = 0; i < 2; i++)
      await t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, admin.token));
    for (let round = 0; round < 3; round++) {
      const added = (await (
        await t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, admin.token))
      ).json()) as { id: string };
      await t.app.request(`/api/admin/addresses/${added.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${admin.token}` },
      });
    }
    const low = (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Payment address pool is low'));
    expect(low).toHaveLength(1);
  });
});

describe('parties are bound to account ids', () => {
  it("an account registered later with a deleted user's e-mail sees none of their escrow, evidence or reviews", async () => {
    const { admin, buyer, seller } = await openMarket(t, [freshAddress()]);
    const deal = (await (
      await t.app.request(
        '/api/escrows',
        json(
          { product_service: 'Lens', description: 'x', amount_usd: '100', seller_email: 'sam@example.com' },
          buyer.token,
        ),
      )
    ).json()) as Escrow;
    const file = new File([new TextEncoder().encode('receipt')], 'receipt.txt', { type: 'text/plain' });
    const data = new FormData();
    data.append('notes', 'sent');
    data.append('file', file);
    expect(
      (
        await t.app.request(`/api/escrows/${deal.id}/mark-paid`, {
          method: 'POST',
          body: data,
          headers: { authorization: `Bearer ${buyer.token}` },
        })
      ).status,
    ).toBe(200);
    await t.app.request(`/api/admin/escrows/${deal.id}/verify-payment`, form({ verified: 'true' }, admin.token));
    await t.app.request(`/api/escrows/${deal.id}/payout-address`, json({ address: PAYOUT }, seller.token));
    expect(
      (await t.app.request(`/api/admin/escrows/${deal.id}/release`, form({ notes: '' }, admin.token))).status,
    ).toBe(200);
    const evidence = await t.database.db.selectFrom('payment_evidence').select('evidence_id').executeTakeFirstOrThrow();
    expect((await t.app.request(`/api/evidence/${evidence.evidence_id}`, bearer(seller.token))).status).toBe(200);

    expect(
      (
        await t.app.request(`/api/admin/users/${seller.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${admin.token}` },
        })
      ).status,
    ).toBe(200);
    // Someone registers with sam's address after sam was deleted, and verifies it.
    const registered = await t.app.request(
      '/api/auth/register',
      json({
        full_name: 'Mallory',
        email: 'sam@example.com',
        username: 'mallory',
        password: PASSWORD,
        confirm_password: PASSWORD,
        role: 'seller',
      }),
    );
    expect(registered.status).toBe(201);
    const verification = (await lastMailTo(t, 'sam@example.com')).body;
    expect((await t.app.request('/api/auth/verify-email', json({ token: tokenInMail(verification) }))).status).toBe(
      200,
    );
    const mallory = await signIn(t, 'mallory');
    expect(
      ((await (await t.app.request('/api/auth/me', bearer(mallory))).json()) as { email_verified: boolean })
        .email_verified,
    ).toBe(true);

    expect((await t.app.request(`/api/escrows/${deal.id}`, bearer(mallory))).status).toBe(404);
    expect(await (await t.app.request('/api/escrows', bearer(mallory))).json()).toEqual([]);
    expect((await t.app.request(`/api/evidence/${evidence.evidence_id}`, bearer(mallory))).status).toBe(404);
    const review = await t.app.request(
      '/api/reviews',
      json(
        { name: 'M', country: 'DE', rating: 5, text: 'Great deal', escrow_id: deal.id, terms_accepted: true },
        mallory,
      ),
    );
    expect(review.status).toBe(201);
    const stored = await t.database.db.selectFrom('reviews').select('verified_deal').executeTakeFirstOrThrow();
    expect(stored.verified_deal).toBe(false);
    // The buyer, bound from the start, still sees it.
    expect((await t.app.request(`/api/escrows/${deal.id}`, bearer(buyer.token))).status).toBe(200);
  });
});

describe('dispute ids', () => {
  it("refuses a resolved dispute's id with 409 and leaves the escrow's open dispute alone", async () => {
    const { admin, buyer, id } = await fundedDeal({ payout: PAYOUT, refund: REFUND });
    await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'Late' }, buyer.token));
    const [first] = (await (await t.app.request('/api/admin/disputes', bearer(admin.token))).json()) as {
      id: string;
    }[];
    expect(
      (
        await t.app.request(
          `/api/admin/disputes/${first!.id}/resolve`,
          form({ outcome: 'Talked it through' }, admin.token),
        )
      ).status,
    ).toBe(200);
    await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'Broken' }, buyer.token));
    const old = await t.app.request(
      `/api/admin/disputes/${first!.id}/resolve`,
      form({ outcome: 'Refund', resolution: 'refund' }, admin.token),
    );
    expect(old.status).toBe(409);
    expect((await body(old)).detail).toMatch(/already resolved/);
    const escrow = await t.database.db
      .selectFrom('escrows')
      .select(['status', 'open_dispute_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(escrow.status).toBe('disputed');
    expect(escrow.open_dispute_id).not.toBe(first!.id);
  });
});

describe('tampering stops money', () => {
  it('re-verifies the whole chain every ten minutes, then answers 503 on money actions and mails the admins once', async () => {
    const { admin, id } = await fundedDeal({ payout: PAYOUT });
    let now = new Date();
    const { ChainWatch } = await import('../audit/chain-watch.ts');
    const watch = new ChainWatch(t.database.db, t.deps.logger, { now: () => now });
    const deps = t.deps as { chainWatch?: unknown };
    const before = deps.chainWatch;
    deps.chainWatch = watch;
    try {
      expect((await watch.check()).status).toBe('ok');
      const { position } = await t.database.db
        .selectFrom('events')
        .select('position')
        .where('type', '=', 'EscrowCreated')
        .executeTakeFirstOrThrow();
      await tamperWith(t.database.db, (trx) =>
        sql`UPDATE events SET data = jsonb_set(data, '{amount_sats}', '1') WHERE position = ${position}`.execute(trx),
      );
      now = new Date(now.getTime() + 60_000);
      expect((await watch.check()).status).toBe('ok'); // an incremental check only re-reads the last event
      now = new Date(now.getTime() + 10 * 60_000);
      expect((await watch.check()).status).toBe('broken');
      await watch.alerted();
      await watch.check();
      const release = await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token));
      expect(release.status).toBe(503);
      expect((await body(release)).detail).toMatch(
        /Money actions are stopped: the event log failed its integrity check at event \d+/,
      );
      const alerts = (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Event log tampered'));
      expect(alerts).toHaveLength(1);
    } finally {
      deps.chainWatch = before;
    }
  });

  it("checks the escrow's money fields against its events before a money action", async () => {
    const { admin, id } = await fundedDeal({ payout: PAYOUT });
    await t.database.db.updateTable('escrows').set({ payout_address: REFUND }).where('id', '=', id).execute();
    const release = await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token));
    expect(release.status).toBe(503);
    expect((await body(release)).detail).toMatch(/the stored payout_address of this escrow disagrees with its events/);
    expect((await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '' }, admin.token))).status).toBe(
      503,
    );
    expect(
      (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Money actions stopped')),
    ).toHaveLength(1);
    const events = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `escrow:${id}`)
      .execute();
    expect(events.map((e) => e.type)).not.toContain('EscrowReleased');
  });
});

describe('payout and refund addresses', () => {
  it('records where the money went, and refuses an address other than the one the admin saw (409 naming both)', async () => {
    const { admin, id } = await fundedDeal({ payout: PAYOUT });
    const stale = await t.app.request(
      `/api/admin/escrows/${id}/release`,
      form({ notes: '', expected_address: REFUND }, admin.token),
    );
    expect(stale.status).toBe(409);
    const answer = await body(stale);
    expect(answer.code).toBe('address_changed');
    expect(answer.detail).toContain(REFUND);
    expect(answer.detail).toContain(PAYOUT);
    expect(
      (
        await t.app.request(
          `/api/admin/escrows/${id}/release`,
          form({ notes: '', expected_address: PAYOUT }, admin.token),
        )
      ).status,
    ).toBe(200);
    const released = await t.database.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'EscrowReleased')
      .executeTakeFirstOrThrow();
    expect((released.data as { destinations: unknown }).destinations).toEqual([
      { to: 'seller', address: PAYOUT, sats: 2_000_000 },
    ]);
  });

  it('a replacement once funded needs the 2FA code, is mailed to both parties and the admins, is on the timeline and is held', async () => {
    const { admin, seller, id } = await fundedDeal({ payout: PAYOUT, refund: REFUND });
    const { secret } = await enableTwoFactorFor(t, seller.token);
    const other = freshAddress();
    const noCode = await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: other }, seller.token));
    expect([noCode.status, (await body(noCode)).code]).toEqual([422, 'totp_required']);
    const replaced = await t.app.request(
      `/api/escrows/${id}/payout-address`,
      json({ address: other, totp_code: await freshCode(t, seller.id, secret) }, seller.token),
    );
    expect(replaced.status).toBe(200);
    expect((await replaced.json()) as Escrow).toMatchObject({
      payout_address: other,
      payout_address_held_until: expect.any(String),
    });
    for (const to of ['ann@example.com', 'sam@example.com', 'root@example.com']) {
      const mail = await lastMailTo(t, to);
      expect(mail.subject).toBe(`Address changed: escrow ${id.slice(0, 8)}`);
      expect(mail.body).toContain(`from ${PAYOUT} to ${other}`);
    }
    const history = (await (await t.app.request(`/api/admin/escrows/${id}/history`, bearer(admin.token))).json()) as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(history.at(-1)).toMatchObject({ type: 'PayoutAddressSet', data: { replaces: PAYOUT, address: other } });
    const held = await t.app.request(
      `/api/admin/escrows/${id}/release`,
      form({ notes: '', expected_address: other }, admin.token),
    );
    expect(held.status).toBe(409);
    expect((await body(held)).detail).toMatch(/replaced recently; money cannot go to it before/);
    // The refund address was never replaced: a refund is not held.
    expect((await t.app.request(`/api/admin/escrows/${id}/refund`, form({ notes: '' }, admin.token))).status).toBe(200);
  });

  it('two admins racing a release against a payout change give one consistent outcome', async () => {
    for (let round = 0; round < 5; round++) {
      await t.database.reset();
      const { admin, seller, id } = await fundedDeal({ payout: PAYOUT });
      const second = await signedInAdmin(t, 'second');
      const other = freshAddress();
      const [release, change, release2] = await Promise.all([
        t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '', expected_address: PAYOUT }, admin.token)),
        t.app.request(`/api/escrows/${id}/payout-address`, json({ address: other }, seller.token)),
        t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: '', expected_address: PAYOUT }, second.token)),
      ]);
      const released = await t.database.db
        .selectFrom('events')
        .select('data')
        .where('type', '=', 'EscrowReleased')
        .execute();
      expect(released.length).toBeLessThanOrEqual(1);
      expect([release.status, release2.status].filter((s) => s === 200).length).toBe(released.length);
      if (released.length === 1) {
        expect((released[0]!.data as { destinations: { address: string }[] }).destinations[0]!.address).toBe(PAYOUT);
        expect(change.status).toBe(409);
      } else {
        expect(change.status).toBe(200);
      }
    }
  });
});
