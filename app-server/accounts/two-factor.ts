import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { userAggregate } from '../../domain/aggregates.ts';
import type { UserCommand } from '../../domain/user/decide.ts';
import { invalidInput, transitionNotAllowed } from '../../domain/shared/errors.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { hashToken } from '../auth/tokens.ts';
import { newTotpSecret, totpQrDataUrl, totpUri } from '../auth/totp.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';
import { normaliseRecoveryCode, passSecondFactor } from './second-factor.ts';

const ISSUER = 'Escrow';
const RECOVERY_CODES = 10;

/**
 * A command the user gives on their own account, and the secret rows written in the same transaction. It decides
 * again when another event lands on the account first (the lockout a parallel wrong code set off, say).
 */
const onOwnAccount = (
  deps: AppDeps,
  user: SignedInUser,
  command: UserCommand,
  meta: Omit<CommandMeta, 'actor'>,
  alsoWrite: (trx: Transaction<Database>) => Promise<void>,
) => handle(deps.store, userAggregate, user.id, command, { ...meta, actor: user.id }, { alsoWrite, attempts: 10 });

/** Draws a new secret (replacing an unconfirmed one) and returns what an authenticator app needs. */
export async function setupTwoFactor(deps: AppDeps, user: SignedInUser) {
  if (user.totp_enabled) throw transitionNotAllowed('2FA is already enabled; disable it first to set up a new device');
  const secret = newTotpSecret();
  const now = new Date().toISOString();
  await deps.database.db
    .insertInto('totp_secrets')
    .values({
      user_id: user.id,
      secret_encrypted: deps.secrets.seal(secret),
      enabled: false,
      last_used_step: null,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        secret_encrypted: deps.secrets.seal(secret),
        enabled: false,
        last_used_step: null,
        created_at: now,
      }),
    )
    .execute();
  const otpauthUrl = totpUri(secret, user.username, ISSUER);
  return { secret, otpauth_url: otpauthUrl, qr_code_url: await totpQrDataUrl(otpauthUrl) };
}

const newRecoveryCode = () => {
  const raw = randomBytes(8).toString('hex').toUpperCase();
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
};

/** A new set of recovery codes in place of every one the user had: only their hashes are stored. */
async function replaceRecoveryCodes(trx: Transaction<Database>, userId: string, codes: readonly string[]) {
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('recovery_codes')
    .values(codes.map((c) => ({ user_id: userId, code_hash: hashToken(normaliseRecoveryCode(c)), used_at: null })))
    .execute();
}

/**
 * Switches 2FA on once the user proves the authenticator works; returns the recovery codes, shown this once and
 * stored only as hashes. Other sessions are revoked.
 */
export async function enableTwoFactor(
  deps: AppDeps,
  user: SignedInUser,
  code: string,
  meta: Omit<CommandMeta, 'actor'>,
) {
  const { db } = deps.database;
  if (user.totp_enabled) throw transitionNotAllowed('2FA is already enabled');
  const pending = await db
    .selectFrom('totp_secrets')
    .select('user_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (!pending) throw transitionNotAllowed('Set up 2FA first');
  await passSecondFactor(deps, user, code, { meta });
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await onOwnAccount(deps, user, { type: 'enableTwoFactor' }, meta, async (trx) => {
    await trx.updateTable('totp_secrets').set({ enabled: true }).where('user_id', '=', user.id).execute();
    await replaceRecoveryCodes(trx, user.id, codes);
  });
  return codes;
}

/** Switches 2FA off with a current code (or a recovery code); the secret and codes are destroyed. */
export async function disableTwoFactor(
  deps: AppDeps,
  user: SignedInUser,
  code: string,
  keepToken: string | undefined,
  meta: Omit<CommandMeta, 'actor'>,
) {
  const { db } = deps.database;
  if (!user.totp_enabled) throw transitionNotAllowed('2FA is not enabled');
  await passSecondFactor(deps, user, code, { meta });
  await onOwnAccount(deps, user, { type: 'disableTwoFactor' }, meta, async (trx) => {
    await trx.deleteFrom('totp_secrets').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
  });
  await revokeUserSessions(db, user.id, keepToken ? { except: keepToken } : {});
}

/**
 * New recovery codes in place of all the old ones (used or not, they stop working), for a user with 2FA on who
 * proves it with a current code from the authenticator app: a recovery code cannot make new ones (someone holding
 * one code would otherwise hold ten). Returns the codes, shown this once; the event records only how many.
 */
export async function regenerateRecoveryCodes(
  deps: AppDeps,
  user: SignedInUser,
  code: string,
  meta: Omit<CommandMeta, 'actor'>,
) {
  if (!user.totp_enabled) throw transitionNotAllowed('2FA is not enabled: recovery codes come with it');
  if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) {
    throw invalidInput(
      'totp_code: enter the 6-digit code your authenticator app shows now (a recovery code cannot make new ones)',
    );
  }
  await passSecondFactor(deps, user, code, { meta });
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await onOwnAccount(deps, user, { type: 'regenerateRecoveryCodes', count: codes.length }, meta, (trx) =>
    replaceRecoveryCodes(trx, user.id, codes),
  );
  return codes;
}

/** How many of the user's recovery codes are still unused; null while 2FA is off (there are none to have). */
export async function recoveryCodesLeft(
  db: Kysely<Database>,
  user: Pick<SignedInUser, 'id' | 'totp_enabled'>,
): Promise<number | null> {
  if (!user.totp_enabled) return null;
  const { n } = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', user.id)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
