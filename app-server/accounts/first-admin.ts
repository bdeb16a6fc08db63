import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { userAggregate } from '../../domain/aggregates.ts';
import { SYSTEM_ACTOR } from '../../domain/shared/context.ts';
import { invalidInput } from '../../domain/shared/errors.ts';
import { passwordSchema, usernameSchema } from '../../contract/user-requests.ts';
import { hashPassword } from '../auth/passwords.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../app-deps.ts';
import { findUserByUsername } from './user-view.ts';

/**
 * Creates an admin unless a user with that username exists (then nothing changes: an existing account is never
 * touched). Returns whether it was created. The e-mail counts as verified: the operator typed it.
 */
export async function ensureAdmin(
  deps: Pick<AppDeps, 'database' | 'store' | 'config'>,
  input: { username: string; email: string; password: string },
): Promise<'created' | 'exists'> {
  const { db } = deps.database;
  const username = usernameSchema.safeParse(input.username);
  if (!username.success) throw invalidInput(username.error.issues[0]!.message);
  const password = passwordSchema.safeParse(input.password);
  if (!password.success) throw invalidInput(password.error.issues[0]!.message);
  if (await findUserByUsername(db, username.data)) return 'exists';
  const id = randomUUID();
  const email = input.email.trim().toLowerCase();
  const hash = await hashPassword(password.data, { log2N: deps.config.PASSWORD_HASH_COST, r: 8, p: 1 });
  await recordAdmin(
    deps,
    { id, username: username.data, email, full_name: 'Administrator', password_hash: hash },
    { actor: SYSTEM_ACTOR, requestId: 'first-admin' },
  );
  return 'created';
}

/**
 * Records an admin's account and password hash, its e-mail verified (the operator typed it). `check` runs first in
 * the transaction that writes the account, and refuses it by throwing.
 */
export async function recordAdmin(
  deps: Pick<AppDeps, 'store'>,
  account: { id: string; username: string; email: string; full_name: string; password_hash: string },
  meta: CommandMeta,
  check: (trx: Transaction<Database>) => Promise<void> = async () => {},
): Promise<void> {
  const { id, username, email, full_name, password_hash } = account;
  const now = new Date().toISOString();
  await handle(
    deps.store,
    userAggregate,
    id,
    { type: 'register', user_id: id, username, email, full_name, role: 'admin', country: null, phone: null },
    meta,
    {
      alsoWrite: async (trx) => {
        await check(trx);
        await trx.insertInto('credentials').values({ user_id: id, password_hash, updated_at: now }).execute();
      },
    },
  );
  await handle(deps.store, userAggregate, id, { type: 'verifyEmail', email }, meta);
}
