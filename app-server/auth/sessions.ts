import { type Kysely, sql } from 'kysely';
import { SIGNED_IN_USER_COLUMNS } from '../app-deps.ts';
import { lastPositionOf } from '../caching/last-position.ts';
import { preparedQuery } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { hashToken, newSecretToken } from './tokens.ts';

export const SESSION_DAYS = 7;

/** Opens a session and returns its token; only the token's hash is kept. */
export async function openSession(db: Kysely<Database>, userId: string, now = new Date()): Promise<string> {
  const token = newSecretToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
    })
    .execute();
  return token;
}

/**
 * The user behind a live (unexpired, unrevoked) token, or undefined, and the position of the last escrow event
 * (0 before the first): one query, prepared (it runs on every signed-in request). `must_change_password`: an admin
 * set a temporary password that the user has not replaced yet. The escrows a user sees change only when that position
 * moves, so their list is kept in memory until it does (see AnswersAtPosition).
 */
const SESSION_USER = preparedQuery((db, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(SIGNED_IN_USER_COLUMNS.map((column) => `users.${column}` as const))
    .select([
      lastPositionOf('escrow').as('escrows_position'),
      sql<boolean>`coalesce((SELECT must_change FROM credentials WHERE credentials.user_id = users.id), false)`.as(
        'must_change_password',
      ),
    ])
    .where('sessions.token_hash', '=', p.tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', sql<Date>`${p.now}`),
);

export async function sessionUser(db: Kysely<Database>, token: string, now = new Date()) {
  // The time as text: the driver's own Date-to-text conversion cost more than the rest of the parameters.
  const [found] = await SESSION_USER(db, { tokenHash: hashToken(token), now: now.toISOString() });
  return found;
}

export async function revokeSession(db: Kysely<Database>, token: string, now = new Date()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now.toISOString() })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every session of a user (suspension, deletion, password reset), or all but one (password change). */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: string,
  options: { except?: string; now?: Date } = {},
): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: (options.now ?? new Date()).toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (options.except) query = query.where('token_hash', '!=', hashToken(options.except));
  await query.execute();
}
