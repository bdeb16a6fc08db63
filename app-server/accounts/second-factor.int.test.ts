import { afterAll, beforeAll, expect, it } from 'vitest';
import { codeFor, enableTwoFactorFor, json, PASSWORD, signedInUser } from '../testing/accounts.ts';
import { describeOnPostgres } from '../testing/postgres-only.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { checkSecondFactor } from './second-factor.ts';

/**
 * One 2FA code is good once: the step it matched is claimed with a compare-and-set, so two requests carrying the
 * same code at the same moment cannot both pass. A race only happens with several connections: PostgreSQL.
 */
const AT_ONCE = 20;
const ROUNDS = 5;
const SIGN_IN_ROUNDS = 20;

describeOnPostgres('one 2FA code sent 20 times at once (PostgreSQL)', () => {
  let t: TestApp;
  let user: { id: string; token: string };
  let secret: string;

  beforeAll(async () => {
    t = await openTestApp({ RATE_LIMIT_LOGIN: '100000' });
    user = await signedInUser(t, 'racer');
    ({ secret } = await enableTwoFactorFor(t, user.token));
  });
  afterAll(async () => t?.close());

  it(`checkSecondFactor: exactly one of ${AT_ONCE} concurrent checks of one code passes, ${ROUNDS} rounds`, async () => {
    // Each round acts a few steps later than the last, so its code is one the user has not used yet.
    const start = Date.now();
    for (let round = 1; round <= ROUNDS; round++) {
      const at = new Date(start + round * 90_000);
      const code = codeFor(secret, at);
      const results = await Promise.all(
        Array.from({ length: AT_ONCE }, () => checkSecondFactor(t.database.db, t.deps.secrets, user.id, code, at)),
      );
      expect(results.filter(Boolean), `round ${round}: successes among ${AT_ONCE}`).toHaveLength(1);
      // Once used, the code is refused afterwards too.
      expect(await checkSecondFactor(t.database.db, t.deps.secrets, user.id, code, at)).toBe(false);
    }
  });

  it(`sign-in: exactly one of ${AT_ONCE} concurrent sign-ins with one code gets a session, ${SIGN_IN_ROUNDS} rounds`, async () => {
    // Four losers and the winner take the five wrong-code slots, so a loser often sets off the lockout, whose
    // TwoFactorLocked lands on the account's stream beside the winner's SignedIn: the winner must still get in.
    for (let round = 1; round <= SIGN_IN_ROUNDS; round++) {
      await t.database.db
        .updateTable('totp_secrets')
        .set({ last_used_step: null })
        .where('user_id', '=', user.id)
        .execute();
      await t.database.db.deleteFrom('rate_limit_counters').where('key', '=', user.id).execute();
      const code = codeFor(secret);
      const answers = await Promise.all(
        Array.from({ length: AT_ONCE }, () =>
          t.app.request('/api/auth/login', json({ username: 'racer', password: PASSWORD, totp_code: code })),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 200),
        `round ${round}, statuses: ${statuses.join(' ')}`,
      ).toHaveLength(1);
      // The others are refused: a used code (401), or no slot left for checking a code (429).
      for (const s of statuses.filter((s) => s !== 200)) expect([401, 429]).toContain(s);
    }
  });
});
