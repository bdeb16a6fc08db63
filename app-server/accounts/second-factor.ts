import type { Kysely } from 'kysely';
import { userAggregate } from '../../domain/aggregates.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { type Limit, type WindowCounts, reachedLimitWith, reserve, secondsUntilRoom } from '../auth/rate-limit.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import { hashToken } from '../auth/tokens.ts';
import { checkTotp } from '../auth/totp.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import type { Database } from '../db/schema.ts';
import { adminEmails } from '../mail/admins.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';
import { queuedMail } from '../mail/outbox.ts';

/**
 * Checks a second factor: a 6-digit TOTP code (each step accepted once: the last used step is advanced with a
 * compare-and-set, so two concurrent uses of one code cannot both pass), or an unused recovery code.
 */
export async function checkSecondFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  userId: string,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const row = await db.selectFrom('totp_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return false;
  const trimmed = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(trimmed)) {
    const step = checkTotp(secrets.open(row.secret_encrypted), trimmed, row.last_used_step, now);
    if (step === null) return false;
    const claimed = await db
      .updateTable('totp_secrets')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }
  if (!row.enabled) return false;
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashToken(normaliseRecoveryCode(trimmed)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Recovery codes are typed by people: case and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Wrong second-factor codes a user may enter, across every code-gated action, before those actions stop. */
export const WRONG_CODES: Limit = { bucket: 'second-factor', max: 5, windowSeconds: 15 * 60 };

/**
 * When code-gated actions open again after the slot with `counts` locked them at `now`, rounded up to the minute a
 * mail can name. Not always 15 minutes: the sliding count keeps a burst at the start of a fixed window for up to 18.
 */
export function pauseEnds(counts: WindowCounts, now: Date): Date {
  const end = now.getTime() + secondsUntilRoom(counts, WRONG_CODES) * 1000;
  return new Date(Math.ceil(end / 60_000) * 60_000);
}

interface GateOptions {
  /** The status of a missing or wrong code: 401 at sign-in, 422 elsewhere. */
  refuseAs?: 'unauthenticated' | 'invalid_input';
  /** The detail when no code was sent. */
  missing?: string;
  meta: Omit<CommandMeta, 'actor'> & { actor?: string };
}

/**
 * The one door of every code-gated action (sign-in, 2FA changes, escrow creation, admin powers, address changes):
 * one counter of wrong codes per user. A slot is taken before the code is checked, in one statement, so N concurrent
 * guesses check at most five codes; a right code gives its slot back. The fifth wrong code in 15 minutes locks
 * code-gated actions for that user (429 with Retry-After, reason `totp_locked`), records TwoFactorLocked (the audit
 * log shows it) and mails the user, and for an admin the other admins.
 */
export async function passSecondFactor(
  deps: AppDeps,
  user: Pick<SignedInUser, 'id' | 'username' | 'email' | 'role'>,
  code: string | undefined,
  options: GateOptions,
): Promise<void> {
  const status = options.refuseAs ?? 'invalid_input';
  if (!code?.trim()) throw new DomainError(status, options.missing ?? '2FA code required', {}, 'totp_required');
  const { db } = deps.database;
  const now = new Date();
  const slot = await reserve(db, WRONG_CODES, user.id, 'Too many wrong 2FA codes; code-gated actions are paused', {
    now,
    reason: 'totp_locked',
  });
  if (await checkSecondFactor(db, deps.secrets, user.id, code)) {
    await slot.release();
    return;
  }
  if (reachedLimitWith(slot.counts, WRONG_CODES))
    await lockOut(deps, user, pauseEnds(slot.counts, now), { ...options.meta, actor: options.meta.actor ?? user.id });
  throw new DomainError(status, 'Invalid 2FA code', {}, 'totp_invalid');
}

async function lockOut(
  deps: AppDeps,
  user: Pick<SignedInUser, 'id' | 'username' | 'email' | 'role'>,
  until: Date,
  meta: CommandMeta,
) {
  const { db } = deps.database;
  const minutes = WRONG_CODES.windowSeconds / 60;
  const paused = `paused until ${displayUtc(until)}`;
  const admins = user.role === 'admin' ? (await adminEmails(db)).filter((to) => to !== user.email) : [];
  const mails = [
    {
      to: user.email,
      subject: 'Your account: too many wrong 2FA codes',
      text: [
        `${WRONG_CODES.max} wrong 2FA codes were entered for your account within ${minutes} minutes, so sign-in and every action that asks for a code are ${paused}.`,
        '',
        'If this was not you, someone may know your password or hold one of your sessions: change your password as soon as the pause ends, and contact support.',
      ].join('\n'),
    },
    ...admins.map((to) => ({
      to,
      subject: 'Admin account: too many wrong 2FA codes',
      text: [
        `${WRONG_CODES.max} wrong 2FA codes were entered for the admin account with username ${JSON.stringify(user.username)} within ${minutes} minutes.`,
        `Its admin powers are ${paused}. If its owner did not do this, suspend the account in the admin console and find out who holds it.`,
      ].join('\n'),
    })),
  ];
  await handle(
    deps.store,
    userAggregate,
    user.id,
    { type: 'lockTwoFactor', failures: WRONG_CODES.max, window_minutes: minutes },
    meta,
    {
      alsoInsert: () => [queuedMail(mails)],
      attempts: 10,
    },
  );
}
