import type { z } from 'zod';
import type { changePasswordSchema } from '../../contract/user-requests.ts';
import type { Role } from '../../domain/shared/schemas.ts';
import { userAggregate } from '../../domain/aggregates.ts';
import { forbidden, invalidInput, notFound } from '../../domain/shared/errors.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';
import { hashGateFor } from '../auth/hash-gate.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { reserve } from '../auth/rate-limit.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import { passwordHashOf } from './queries.ts';
import { findUserById, userView } from './user-view.ts';

/**
 * Every write on an account, the one way in for the routes: each runs the user decider through `handle()`. The
 * longer flows keep their own files (sign-up, sign-in, 2FA, e-mail confirmation, the first admin, an admin's powers
 * over users) and are named here, so a route imports its writes from this module alone.
 */
export { deleteUser, resetPassword, suspendUser, unsuspendUser, updateUser } from './admin-users.ts';
export { queueVerificationMail, verifyEmailToken } from './email-verification.ts';
export { createFirstAdmin } from './first-admin-setup.ts';
export { login } from './login.ts';
export { register } from './register.ts';
export {
  disableTwoFactor,
  enableTwoFactor,
  recoveryCodesLeft,
  regenerateRecoveryCodes,
  setupTwoFactor,
} from './two-factor.ts';

/**
 * Changes the signed-in user's password after checking the current one (wrong ones count like failed sign-ins, per
 * user, the slot taken before the hash), and signs out every other session of theirs (`keepToken` stays).
 */
export async function changePassword(
  deps: AppDeps,
  me: SignedInUser,
  input: z.infer<typeof changePasswordSchema>,
  keepToken: string,
  meta: Omit<CommandMeta, 'actor'>,
) {
  const { db } = deps.database;
  const limit = { bucket: 'change-password', max: deps.config.RATE_LIMIT_LOGIN, windowSeconds: 15 * 60 };
  const slot = await reserve(db, limit, me.id, 'Too many wrong current passwords');
  const storedHash = await passwordHashOf(db, me.id);
  const gate = hashGateFor(deps.config);
  let currentOk: boolean;
  try {
    currentOk = await gate.run(() => verifyPassword(input.current_password, storedHash));
  } catch (error) {
    await slot.release();
    throw error;
  }
  if (!currentOk) throw forbidden('current_password is wrong');
  await slot.release();
  if (input.current_password === input.new_password)
    throw invalidInput('new_password must differ from the current one');
  const hash = await gate.run(() =>
    hashPassword(input.new_password, { log2N: deps.config.PASSWORD_HASH_COST, r: 8, p: 1 }),
  );
  await handle(
    deps.store,
    userAggregate,
    me.id,
    { type: 'changePassword' },
    { ...meta, actor: me.id },
    {
      alsoWrite: async (trx) => {
        const now = new Date().toISOString();
        await trx
          .updateTable('credentials')
          .set({ password_hash: hash, must_change: false, updated_at: now })
          .where('user_id', '=', me.id)
          .execute();
      },
    },
  );
  await revokeUserSessions(db, me.id, { except: keepToken });
}

/** The signed-in user acts as a buyer or a seller from now on; answers the user as they now are. */
export async function switchRole(deps: AppDeps, me: SignedInUser, to: Role, meta: Omit<CommandMeta, 'actor'>) {
  await handle(deps.store, userAggregate, me.id, { type: 'switchRole', to }, { ...meta, actor: me.id });
  const user = await findUserById(deps.database.db, me.id);
  if (!user) throw notFound('User not found');
  return userView(user);
}
