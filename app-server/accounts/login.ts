import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { userAggregate } from '../../domain/aggregates.ts';
import { DomainError, forbidden } from '../../domain/shared/errors.ts';
import type { loginSchema } from '../../domain/user/api-schemas.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { assertUnderLimit, type Limit, recordHit } from '../auth/rate-limit.ts';
import { openSession, revokeSession } from '../auth/sessions.ts';
import { type CommandMeta, executeCommand } from '../commands/execute.ts';
import type { AppDeps } from '../http/env.ts';
import { checkSecondFactor } from './second-factor.ts';
import { findUserByUsername } from './user-view.ts';

/** Compared against when the username is unknown, at the same cost as real hashes, so both failures take as long. */
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  if (!dummyHashes.has(cost)) dummyHashes.set(cost, hashPassword(randomBytes(16).toString('hex'), { log2N: cost, r: 8, p: 1 }));
  return dummyHashes.get(cost)!;
}
const WINDOW_SECONDS = 15 * 60;

const invalidCredentials = () => new DomainError('unauthenticated', 'Invalid username or password');

/**
 * Signs in: refused with 429 once the account or the client address reached the failure limit (even with the
 * right password), the same message for an unknown user and a wrong password, then the second factor when on.
 */
export async function login(deps: AppDeps, input: z.infer<typeof loginSchema>, client: string, meta: Omit<CommandMeta, 'actor'>) {
  const { db } = deps.database;
  const max = deps.config.RATE_LIMIT_LOGIN;
  const perAccount: Limit = { bucket: 'login-account', max, windowSeconds: WINDOW_SECONDS };
  const perAddress: Limit = { bucket: 'login-ip', max, windowSeconds: WINDOW_SECONDS };
  const accountKey = input.username.toLowerCase();
  const refusal = 'Too many failed sign-in attempts';
  await assertUnderLimit(db, perAccount, accountKey, refusal);
  await assertUnderLimit(db, perAddress, client, refusal);

  const failed = async (kind: string) => {
    await recordHit(db, perAccount, accountKey);
    await recordHit(db, perAddress, client);
    await db.insertInto('security_log').values({ kind, username: input.username.slice(0, 254), client_address: client }).execute();
  };

  const user = await findUserByUsername(db, input.username);
  const credentials = user
    ? await db.selectFrom('credentials').select(['password_hash', 'must_change']).where('user_id', '=', user.id).executeTakeFirst()
    : undefined;
  const passwordOk = await verifyPassword(input.password, credentials?.password_hash ?? (await dummyHash(deps.config.PASSWORD_HASH_COST)));
  if (!user || !credentials || !passwordOk) {
    await failed('bad-password');
    throw invalidCredentials();
  }
  if (user.is_frozen) throw forbidden('Account suspended');
  if (user.totp_enabled) {
    if (!input.totp_code) throw new DomainError('unauthenticated', '2FA code required', {}, 'totp_required');
    if (!(await checkSecondFactor(db, deps.secrets, user.id, input.totp_code))) {
      await failed('bad-2fa');
      throw new DomainError('unauthenticated', 'Invalid 2FA code', {}, 'totp_invalid');
    }
  }
  // The session exists before the sign-in is recorded, so a suspension landing in between revokes it too. A sign-in
  // that loses a race (another sign-in, or the suspension) is answered 409 and leaves no live session behind.
  const token = await openSession(db, user.id);
  try {
    await executeCommand({ db, store: deps.store }, userAggregate, user.id, { type: 'signIn' }, { ...meta, actor: user.id });
  } catch (error) {
    await revokeSession(db, token);
    throw error;
  }
  return { token, user, mustChangePassword: credentials.must_change };
}
