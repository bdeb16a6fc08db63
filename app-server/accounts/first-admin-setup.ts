import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SYSTEM_ACTOR } from '../../domain/shared/context.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { z } from 'zod';
import { hashPassword } from '../auth/passwords.ts';
import { openSession } from '../auth/sessions.ts';
import { hashToken, newSecretToken } from '../auth/tokens.ts';
import { publicUrl } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../app-deps.ts';
import type { firstAdminSchema } from '../../contract/user-requests.ts';
import { recordAdmin } from './first-admin.ts';

export const adminExists = async (db: Kysely<Database>) =>
  (await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst()) !== undefined;

/**
 * While no admin exists: a new one-time setup link (only the token's hash is stored). Null once an admin exists.
 * Links issued earlier stay valid too (each server start issues one), until one of them is used.
 */
export async function issueSetupLink(deps: Pick<AppDeps, 'database' | 'config'>): Promise<string | null> {
  const { db } = deps.database;
  if (await adminExists(db)) return null;
  const token = newSecretToken();
  await db
    .insertInto('setup_tokens')
    .values({ token_hash: hashToken(token) })
    .execute();
  return `${publicUrl(deps.config)}/setup?token=${token}`;
}

/** True when `token` opens the setup page: it was issued, not used, and no admin exists yet. */
export async function setupTokenValid(db: Kysely<Database>, token: string): Promise<boolean> {
  if (await adminExists(db)) return false;
  const row = await db
    .selectFrom('setup_tokens')
    .select('token_hash')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return row !== undefined;
}

const invalidLink = () =>
  new DomainError(
    'conflict',
    'This setup link is no longer valid: it was used, or an admin exists already. Sign in instead.',
    {},
    'setup_link_invalid',
  );

/**
 * Creates the first admin through the setup link, and signs them in. The user's events and the deletion of every
 * setup token are one transaction, under the chain-head lock appends take: of two attempts (same link or not) one
 * wins and the other is refused, and no link works afterwards. The e-mail counts as verified: the operator typed it.
 */
export async function createFirstAdmin(
  deps: AppDeps,
  token: string,
  input: z.infer<typeof firstAdminSchema>,
  requestId: string,
) {
  const { db } = deps.database;
  if (!(await setupTokenValid(db, token))) throw invalidLink();
  const id = randomUUID();
  const hash = await hashPassword(input.password, { log2N: deps.config.PASSWORD_HASH_COST, r: 8, p: 1 });
  const { username, email, full_name } = input;
  await recordAdmin(
    deps,
    { id, username, email, full_name, password_hash: hash },
    { actor: SYSTEM_ACTOR, requestId },
    async (trx) => {
      const deleted = await trx.deleteFrom('setup_tokens').returning('token_hash').execute();
      const otherAdmin = await trx
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .where('id', '!=', id)
        .limit(1)
        .executeTakeFirst();
      if (!deleted.some((row) => row.token_hash === hashToken(token)) || otherAdmin) throw invalidLink();
    },
  );
  return { userId: id, token: await openSession(db, id) };
}
