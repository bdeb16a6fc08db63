import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/shared/errors.ts';
import { hashToken } from '../auth/tokens.ts';
import { codeFor, enableTwoFactorFor, signedInAdmin, signedInUser } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { checkSecondFactor, normaliseRecoveryCode, passSecondFactor, WRONG_CODES } from './second-factor.ts';

/**
 * What a person types as a second factor (a 6-digit code from the authenticator, with or without spaces, or a
 * recovery code in any case, with or without dashes), and what the wrong-code lockout tells them and the admins.
 * Runs on PGlite and PostgreSQL alike (the concurrent race is in second-factor.int.test.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => t?.close());

const check = (userId: string, code: string, at = new Date()) =>
  checkSecondFactor(t.database.db, t.deps.secrets, userId, code, at);

/** A step no code of the tests has used yet: each test acts some minutes after the last. */
let minutesAhead = 0;
const later = () => new Date(Date.now() + ++minutesAhead * 2 * 60_000);

/** Gives the user a recovery code of the test's choosing, stored as the server stores them. */
async function addRecoveryCode(userId: string, code: string) {
  await t.database.db
    .insertInto('recovery_codes')
    .values({ user_id: userId, code_hash: hashToken(normaliseRecoveryCode(code)), used_at: null })
    .execute();
}

const userRow = async (id: string) =>
  t.database.db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'role'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** The DomainError a call refuses with (or fails the test). */
async function refusal(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkSecondFactor: what a person may type', () => {
  let user: { id: string; token: string };
  let secret: string;
  let recovery: string[];
  beforeAll(async () => {
    user = await signedInUser(t, 'typist');
    ({ secret, recovery } = await enableTwoFactorFor(t, user.token));
  });

  it('takes an authenticator code typed with spaces', async () => {
    const at = later();
    const code = codeFor(secret, at);
    expect(await check(user.id, `  ${code.slice(0, 3)}  ${code.slice(3)} `, at)).toBe(true);
  });

  it('refuses a 6-digit code that is not the current one', async () => {
    const at = later();
    const wrong = codeFor(secret, new Date(at.getTime() - 10 * 60_000));
    expect(await check(user.id, wrong, at)).toBe(false);
  });

  it('refuses a wrong code before any code was used (a secret just set up, not yet confirmed)', async () => {
    const fresh = await signedInUser(t, 'newcomer');
    const setup = await t.app.request('/api/auth/setup-2fa', {
      method: 'POST',
      headers: { Authorization: `Bearer ${fresh.token}` },
    });
    const { secret: unconfirmed } = (await setup.json()) as { secret: string };
    const at = later();
    expect(await check(fresh.id, codeFor(unconfirmed, new Date(at.getTime() - 10 * 60_000)), at)).toBe(false);
    expect(await check(fresh.id, codeFor(unconfirmed, at), at)).toBe(true);
  });

  it('takes a recovery code typed in lower case with extra dashes and spaces, once', async () => {
    const code = recovery[0]!;
    const typed = ` ${code.toLowerCase().replaceAll('-', '--')} `;
    expect(await check(user.id, typed)).toBe(true);
    // Used now: refused in any spelling.
    expect(await check(user.id, code)).toBe(false);
    expect(await check(user.id, typed)).toBe(false);
  });

  it('takes a recovery code exactly as shown', async () => {
    expect(await check(user.id, recovery[1]!)).toBe(true);
  });

  it('takes a recovery code typed without dashes whose last or first six characters are digits', async () => {
    await addRecoveryCode(user.id, 'ABCD-EF12-3456-7890');
    await addRecoveryCode(user.id, '1234-56AB-CDEF-ABCD');
    expect(await check(user.id, 'abcdef1234567890')).toBe(true);
    expect(await check(user.id, '123456ABCDEFABCD')).toBe(true);
  });

  it('refuses a recovery code that differs from one given only in its letters', async () => {
    await addRecoveryCode(user.id, 'ABCD-EF98-7654-3210');
    expect(normaliseRecoveryCode(' abcd-ef98--7654 3210')).toBe('ABCDEF9876543210');
    expect(await check(user.id, 'FFFF-FF98-7654-3210')).toBe(false);
    expect(await check(user.id, 'abcd-ef98-7654-3210')).toBe(true);
  });

  it('refuses a code nobody was given', async () => {
    expect(await check(user.id, 'AAAA-BBBB-CCCC-DDDD')).toBe(false);
    expect(await check(user.id, '1234567')).toBe(false);
  });

  it('refuses any code for a user with no 2FA row', async () => {
    const other = await signedInUser(t, 'no2fa');
    expect(await check(other.id, codeFor(secret))).toBe(false);
    expect(await check(other.id, recovery[2]!)).toBe(false);
  });

  it('refuses a recovery code while the 2FA row is switched off', async () => {
    const other = await signedInUser(t, 'switchedoff');
    const { recovery: codes } = await enableTwoFactorFor(t, other.token);
    await t.database.db.updateTable('totp_secrets').set({ enabled: false }).where('user_id', '=', other.id).execute();
    expect(await check(other.id, codes[0]!)).toBe(false);
    // The code was not spent by the refused check: once 2FA is on again it still works.
    await t.database.db.updateTable('totp_secrets').set({ enabled: true }).where('user_id', '=', other.id).execute();
    expect(await check(other.id, codes[0]!)).toBe(true);
  });
});

describe('passSecondFactor: the refusals and the lockout', () => {
  const meta = { requestId: 'test-second-factor' };

  const mailsSince = async (id: number) =>
    t.database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'body'])
      .where('id', '>', id)
      .where('subject', 'like', '%too many wrong 2FA codes%')
      .orderBy('to_address')
      .execute();
  const lastMailId = async () =>
    (
      await t.database.db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0;

  /** Five wrong codes: the fifth locks. Returns the refusals. */
  async function fiveWrong(user: Awaited<ReturnType<typeof userRow>>, secret: string) {
    const wrong = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    const refusals: DomainError[] = [];
    for (let i = 0; i < WRONG_CODES.max; i++)
      refusals.push(await refusal(passSecondFactor(t.deps, user, wrong, { meta })));
    return refusals;
  }

  it('asks for a code when none, or only spaces, is sent', async () => {
    const { id } = await signedInUser(t, 'blank');
    const user = await userRow(id);
    for (const code of [undefined, '', '   ']) {
      const error = await refusal(passSecondFactor(t.deps, user, code, { meta }));
      expect(error).toMatchObject({ code: 'invalid_input', detail: '2FA code required', reason: 'totp_required' });
    }
    const atSignIn = await refusal(
      passSecondFactor(t.deps, user, ' ', { meta, refuseAs: 'unauthenticated', missing: 'Enter your 2FA code' }),
    );
    expect(atSignIn).toMatchObject({ code: 'unauthenticated', detail: 'Enter your 2FA code', reason: 'totp_required' });
  });

  it('locks a user out after five wrong codes, mails only that user, and records it', async () => {
    const { id, token } = await signedInUser(t, 'guesser');
    const { secret } = await enableTwoFactorFor(t, token);
    await signedInAdmin(t, 'watcher'); // an admin, who is not told about a user's lockout
    const user = await userRow(id);
    const before = await lastMailId();

    const refusals = await fiveWrong(user, secret);
    for (const error of refusals)
      expect(error).toMatchObject({ code: 'invalid_input', detail: 'Invalid 2FA code', reason: 'totp_invalid' });

    const askedAt = Date.now();
    const locked = await refusal(passSecondFactor(t.deps, user, codeFor(secret), { meta }));
    const refusedAt = Date.now();
    expect(locked).toMatchObject({ code: 'rate_limited', reason: 'totp_locked' });
    expect(locked.detail).toMatch(
      /^Too many wrong 2FA codes; code-gated actions are paused; try again in \d+ seconds$/,
    );
    const retryAfter = Number(locked.headers['Retry-After']);
    // Five wrong codes at the very start of a fixed window are counted for up to 18 minutes, never longer.
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(18 * 60 + 1);

    const mails = await mailsSince(before);
    expect(mails).toEqual([
      {
        to_address: 'guesser@example.com',
        subject: 'Your account: too many wrong 2FA codes',
        body: expect.stringMatching(
          new RegExp(
            [
              '^5 wrong 2FA codes were entered for your account within 15 minutes, so sign-in and every action that asks for a code are paused until (\\d+ \\w+ \\d{4}, \\d\\d:\\d\\d) UTC\\.',
              '',
              'If this was not you, someone may know your password or hold one of your sessions: change your password as soon as the pause ends, and contact support\\.$',
            ].join('\n'),
          ),
        ),
      },
    ]);
    // The mail's time is when the server lets codes in again, rounded up to the minute: never before the retry.
    const until = Date.parse(`${/paused until (.+) UTC/.exec(mails[0]!.body)![1]} UTC`);
    expect(until).toBeGreaterThanOrEqual(askedAt + (retryAfter - 1) * 1000);
    expect(until).toBeLessThanOrEqual(refusedAt + retryAfter * 1000 + 61_000);
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data', 'metadata'])
      .where('stream_id', '=', `user:${id}`)
      .where('type', '=', 'TwoFactorLocked')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({ failures: 5, window_minutes: 15 });
    expect(events[0]!.metadata).toMatchObject({ actor: id });
  });

  it('for an admin, mails the admin and every other admin, never the locked-out admin twice', async () => {
    const admin = await signedInAdmin(t, 'chief');
    const { secret } = await enableTwoFactorFor(t, admin.token);
    await signedInAdmin(t, 'deputy');
    const user = await userRow(admin.id);
    const before = await lastMailId();

    await fiveWrong(user, secret);

    const mails = await mailsSince(before);
    const until = /paused until (.+ UTC)\./.exec(mails[0]!.body)![1];
    const toOthers = [
      '5 wrong 2FA codes were entered for the admin account with username "chief" within 15 minutes.',
      `Its admin powers are paused until ${until}. If its owner did not do this, suspend the account in the admin console and find out who holds it.`,
    ].join('\n');
    expect(mails.map((m) => [m.to_address, m.subject])).toEqual([
      ['chief@example.com', 'Your account: too many wrong 2FA codes'],
      ['deputy@example.com', 'Admin account: too many wrong 2FA codes'],
      ['watcher@example.com', 'Admin account: too many wrong 2FA codes'],
    ]);
    expect(mails[1]!.body).toBe(toOthers);
    expect(mails[2]!.body).toBe(toOthers);
  });
});
