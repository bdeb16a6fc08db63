import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  enableTwoFactorFor,
  form,
  freshCode,
  json,
  PASSWORD,
  signedInUser,
} from '../../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

/** POST /api/auth/recovery-codes: new codes for a current 2FA code; /api/auth/me says how many are left. */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

const me = async (token: string) =>
  (await (await t.app.request('/api/auth/me', bearer(token))).json()) as { recovery_codes_left: number | null };
const signInWith = (totp_code: string) =>
  t.app.request('/api/auth/login', json({ username: 'ann', password: PASSWORD, totp_code }));
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

async function annWithTwoFactor() {
  const ann = await signedInUser(t, 'ann');
  const { secret, recovery } = await enableTwoFactorFor(t, ann.token);
  return { ...ann, secret, recovery };
}

describe('regenerating recovery codes', () => {
  it('replaces every old code with ten new ones, answered once', async () => {
    const ann = await annWithTwoFactor();
    const res = await t.app.request(
      '/api/auth/recovery-codes',
      form({ totp_code: await freshCode(t, ann.id, ann.secret) }, ann.token),
    );
    expect(res.status).toBe(200);
    const { recovery_codes: fresh } = (await res.json()) as { recovery_codes: string[] };
    expect(fresh).toHaveLength(10);
    expect(new Set(fresh).size).toBe(10);
    expect(fresh.filter((c) => ann.recovery.includes(c))).toEqual([]);

    expect((await signInWith(ann.recovery[0]!)).status).toBe(401);
    expect((await signInWith(fresh[0]!)).status).toBe(200);
    expect((await signInWith(fresh[0]!)).status).toBe(401);
  });

  it('records the regeneration without the codes, and stores only their hashes', async () => {
    const ann = await annWithTwoFactor();
    const res = await t.app.request(
      '/api/auth/recovery-codes',
      form({ totp_code: await freshCode(t, ann.id, ann.secret) }, ann.token),
    );
    const { recovery_codes: fresh } = (await res.json()) as { recovery_codes: string[] };
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream_id', '=', `user:${ann.id}`)
      .execute();
    const recorded = events.filter((e) => e.type === 'RecoveryCodesRegenerated');
    expect(recorded.map((e) => e.data)).toEqual([{ count: 10 }]);
    const everything =
      JSON.stringify(await t.database.db.selectFrom('events').selectAll().execute()) +
      JSON.stringify(await t.database.db.selectFrom('recovery_codes').selectAll().execute());
    for (const code of fresh) {
      expect(everything).not.toContain(code);
      expect(everything).not.toContain(code.replaceAll('-', ''));
    }
  });

  it('refuses a wrong code with a detail and keeps the old codes', async () => {
    const ann = await annWithTwoFactor();
    const wrong = await t.app.request('/api/auth/recovery-codes', form({ totp_code: '000000' }, ann.token));
    expect([wrong.status, await detail(wrong)]).toEqual([422, 'Invalid 2FA code']);
    const missing = await t.app.request('/api/auth/recovery-codes', form({ totp_code: '' }, ann.token));
    expect(missing.status).toBe(422);
    expect(await detail(missing)).toContain('totp_code');
    expect((await signInWith(ann.recovery[0]!)).status).toBe(200);
  });

  it('does not take a recovery code, naming the field', async () => {
    const ann = await annWithTwoFactor();
    const res = await t.app.request('/api/auth/recovery-codes', form({ totp_code: ann.recovery[0]! }, ann.token));
    expect(res.status).toBe(422);
    expect(await detail(res)).toMatch(/^totp_code: .*6-digit/);
    expect((await signInWith(ann.recovery[0]!)).status).toBe(200); // not used up
  });

  it('is refused while 2FA is off', async () => {
    const bob = await signedInUser(t, 'bob');
    const res = await t.app.request('/api/auth/recovery-codes', form({ totp_code: '123456' }, bob.token));
    expect(res.status).toBe(409);
    expect(await detail(res)).toMatch(/2FA is not enabled/);
  });
});

describe('how many recovery codes are left', () => {
  it('is null without 2FA, ten once on, one fewer for each code used, ten again after regenerating', async () => {
    const bob = await signedInUser(t, 'bob');
    expect((await me(bob.token)).recovery_codes_left).toBeNull();

    const ann = await annWithTwoFactor();
    expect((await me(ann.token)).recovery_codes_left).toBe(10);
    expect((await signInWith(ann.recovery[0]!)).status).toBe(200);
    expect((await signInWith(ann.recovery[1]!)).status).toBe(200);
    expect((await me(ann.token)).recovery_codes_left).toBe(8);

    const res = await t.app.request(
      '/api/auth/recovery-codes',
      form({ totp_code: await freshCode(t, ann.id, ann.secret) }, ann.token),
    );
    expect(res.status).toBe(200);
    expect((await me(ann.token)).recovery_codes_left).toBe(10);
  });
});
