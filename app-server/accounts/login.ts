import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { userAggregate } from '../../domain/aggregates.ts';
import { DomainError, forbidden } from '../../domain/shared/errors.ts';
import type { loginSchema } from '../../contract/user-requests.ts';
import { hashGateFor } from '../auth/hash-gate.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { type Limit, reachedLimitWith, type Reservation, reserve, slidingCount } from '../auth/rate-limit.ts';
import { openSession, revokeSession } from '../auth/sessions.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import { adminEmails } from '../mail/admins.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { passSecondFactor } from './second-factor.ts';
import { findUserByUsername } from './user-view.ts';

/** Compared against when the username is unknown, at the same cost as real hashes, so both failures take as long. */
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  if (!dummyHashes.has(cost))
    dummyHashes.set(cost, hashPassword(randomBytes(16).toString('hex'), { log2N: cost, r: 8, p: 1 }));
  return dummyHashes.get(cost)!;
}
const WINDOW_SECONDS = 15 * 60;
/** How much longer each sign-in to an account takes while it is failing from many addresses. */
export const ACCOUNT_UNDER_ATTACK_DELAY_MS = 2_000;

const invalidCredentials = () => new DomainError('unauthenticated', 'Invalid username or password');
/**
 * On an account with 2FA the password alone is never confirmed: with no code, a right and a wrong password both get
 * `2FA code required`; with a code, a wrong password and a wrong code both get this one answer.
 */
const codeRequired = () => new DomainError('unauthenticated', '2FA code required', {}, 'totp_required');
const invalidPasswordOrCode = () =>
  new DomainError('unauthenticated', 'Invalid username, password or 2FA code', {}, 'totp_invalid');

/**
 * Signs in. Before the password is hashed, the attempt takes a slot (in one statement each) in two hard limits:
 * failures of this account from this client address, and failures from this client address; over either, 429 even
 * with the right password. A third count, failures of the account from anywhere, never refuses: past the limit each
 * sign-in to the account is slowed and the owner (and for an admin, the other admins) is mailed once, so nobody can
 * lock the right password out from another address. Slots are given back when the attempt was not a failure. Then
 * the second factor when on, through the one counter of wrong codes.
 */
export async function login(
  deps: AppDeps,
  input: z.infer<typeof loginSchema>,
  client: string,
  meta: Omit<CommandMeta, 'actor'>,
) {
  const { db } = deps.database;
  const max = deps.config.RATE_LIMIT_LOGIN;
  const accountKey = input.username.toLowerCase();
  const perPair: Limit = { bucket: 'login-account-ip', max, windowSeconds: WINDOW_SECONDS };
  const perAddress: Limit = { bucket: 'login-ip', max, windowSeconds: WINDOW_SECONDS };
  const perAccount: Limit = { bucket: 'login-account', max, windowSeconds: WINDOW_SECONDS };
  const refusal = 'Too many failed sign-in attempts';

  const slots: Reservation[] = [];
  const giveBack = () => Promise.all(slots.map((s) => s.release()));
  try {
    slots.push(await reserve(db, perPair, JSON.stringify([accountKey, client]), refusal));
    slots.push(await reserve(db, perAddress, client, refusal));
  } catch (error) {
    await giveBack();
    throw error;
  }
  const account = await reserve(db, { ...perAccount, max: Number.MAX_SAFE_INTEGER }, accountKey, refusal);
  slots.push(account);
  if (slidingCount({ ...account.counts, current: account.counts.current - 1 }) >= max)
    await sleep(ACCOUNT_UNDER_ATTACK_DELAY_MS);

  const user = await findUserByUsername(db, input.username);
  const failed = async (kind: string) => {
    await db
      .insertInto('security_log')
      .values({ kind, username: input.username.slice(0, 254), client_address: client })
      .execute();
    if (user && reachedLimitWith(account.counts, perAccount)) await alertAccountUnderAttack(deps, user);
  };

  let mustChangePassword: boolean;
  try {
    const credentials = user
      ? await db
          .selectFrom('credentials')
          .select(['password_hash', 'must_change'])
          .where('user_id', '=', user.id)
          .executeTakeFirst()
      : undefined;
    mustChangePassword = credentials?.must_change ?? false;
    const stored = credentials?.password_hash ?? (await dummyHash(deps.config.PASSWORD_HASH_COST));
    const passwordOk = await hashGateFor(deps.config).run(() => verifyPassword(input.password, stored));
    if (!user || !credentials || !passwordOk) {
      await failed('bad-password');
      // On an account with 2FA, a wrong password is answered as the right one without (or with a wrong) code would be.
      if (user?.totp_enabled && credentials) throw input.totp_code ? invalidPasswordOrCode() : codeRequired();
      throw invalidCredentials();
    }
    if (user.is_frozen) {
      await giveBack();
      throw forbidden('Account suspended');
    }
    if (user.totp_enabled) {
      try {
        await passSecondFactor(deps, user, input.totp_code, {
          refuseAs: 'unauthenticated',
          missing: '2FA code required',
          meta: { ...meta, actor: user.id },
        });
      } catch (error) {
        // Counted like a wrong password, so the limits cannot tell the two apart either.
        if (error instanceof DomainError && error.reason === 'totp_invalid') {
          await failed('bad-2fa');
          throw invalidPasswordOrCode();
        }
        if (error instanceof DomainError && error.reason === 'totp_required') {
          await failed('no-2fa-code');
          throw codeRequired();
        }
        await giveBack();
        throw error;
      }
    }
  } catch (error) {
    // A refusal that is not a failed sign-in (the server was busy, say) leaves nothing counted.
    if (!(error instanceof DomainError) || error.code !== 'unauthenticated') await giveBack();
    throw error;
  }
  await giveBack();
  // The session exists before the sign-in is recorded, so a suspension landing in between revokes it too. Another
  // event on the account landing first (a parallel sign-in, the lockout a parallel wrong code set off) makes the
  // sign-in decide again on the newer state: a suspension refuses it then, and its session is revoked.
  const token = await openSession(db, user.id);
  try {
    await handle(deps.store, userAggregate, user.id, { type: 'signIn' }, { ...meta, actor: user.id }, { attempts: 10 });
  } catch (error) {
    await revokeSession(db, token);
    throw error;
  }
  return { token, user, mustChangePassword };
}

/** The account failed the limit's worth of sign-ins from anywhere: its owner hears of it, and for an admin, the other admins. */
async function alertAccountUnderAttack(deps: AppDeps, user: SignedInUser) {
  const { db } = deps.database;
  const admins = user.role === 'admin' ? (await adminEmails(db)).filter((to) => to !== user.email) : [];
  const minutes = WINDOW_SECONDS / 60;
  await db.transaction().execute((trx) =>
    enqueueMail(trx, [
      {
        to: user.email,
        subject: 'Your account: many failed sign-ins',
        text: [
          `There were ${deps.config.RATE_LIMIT_LOGIN} or more failed sign-ins to your account in the last ${minutes} minutes.`,
          'Your account is not locked: sign-ins to it are slowed down for a while. If this was not you, use a strong password you use nowhere else, and turn on 2FA.',
        ].join('\n'),
      },
      ...admins.map((to) => ({
        to,
        subject: 'Admin account: many failed sign-ins',
        text: [
          `There were ${deps.config.RATE_LIMIT_LOGIN} or more failed sign-ins to the admin account with username ${JSON.stringify(user.username)} in the last ${minutes} minutes, from one or more addresses.`,
          'Sign-ins to it are slowed down, not refused. Check the security log for the addresses.',
        ].join('\n'),
      })),
    ]),
  );
}
