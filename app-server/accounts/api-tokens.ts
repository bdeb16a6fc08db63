import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type ApiToken, type ApiTokenScope, MAX_API_TOKENS } from '../../contract/api-tokens.ts';
import { conflict, forbidden, notFound } from '../../domain/shared/errors.ts';
import { SIGNED_IN_USER_COLUMNS } from '../app-deps.ts';
import { hashToken, newSecretToken } from '../auth/tokens.ts';
import { lastPositionOf } from '../caching/last-position.ts';
import type { Database } from '../db/schema.ts';

/** Every API token starts so: the authentication tells it from a session token without a lookup in both tables. */
export const API_TOKEN_PREFIX = 'esc_';

const view = (row: {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  created_at: Date;
  last_used_at: Date | null;
}): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

/** An admin account never holds a token: refused before anything else is asked (a 2FA code included). */
export function assertMayHoldApiToken(user: { role: string }) {
  if (user.role === 'admin') throw forbidden('API tokens never carry admin powers: an admin account cannot make one');
}

/** Makes a token for a (non-admin) user; the token is returned this once and only its SHA-256 is kept. */
export async function createApiToken(
  db: Kysely<Database>,
  user: { id: string; role: string },
  input: { name: string; scopes: ApiTokenScope[] },
) {
  assertMayHoldApiToken(user);
  const live = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= MAX_API_TOKENS) throw conflict(`At most ${MAX_API_TOKENS} API tokens; revoke one first`);
  const token = `${API_TOKEN_PREFIX}${newSecretToken()}`;
  const row = await db
    .insertInto('api_tokens')
    .values({
      id: randomUUID(),
      user_id: user.id,
      name: input.name,
      token_hash: hashToken(token),
      scopes: JSON.stringify(input.scopes),
    })
    .returning(['id', 'name', 'scopes', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
  return { token, api_token: view(row) };
}

/** A user's live tokens, newest first, with their last use. */
export async function listApiTokens(db: Kysely<Database>, userId: string): Promise<ApiToken[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'scopes', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(view);
}

export async function revokeApiToken(db: Kysely<Database>, userId: string, id: string): Promise<void> {
  const revoked = await db
    .updateTable('api_tokens')
    .set({ revoked_at: sql<string>`now()` as unknown as string })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(revoked.numUpdatedRows) !== 1) throw notFound('API token not found');
}

/**
 * The live token behind a bearer value and its account, or undefined; its last use is written at most once a
 * minute (not one write per request).
 */
export async function apiTokenUser(db: Kysely<Database>, token: string) {
  const found = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(SIGNED_IN_USER_COLUMNS.map((column) => `users.${column}` as const))
    .select([
      'api_tokens.id as api_token_id',
      'api_tokens.scopes as api_token_scopes',
      lastPositionOf('escrow').as('escrows_position'),
      sql<boolean>`coalesce((SELECT must_change FROM credentials WHERE credentials.user_id = users.id), false)`.as(
        'must_change_password',
      ),
    ])
    .where('api_tokens.token_hash', '=', hashToken(token))
    .where('api_tokens.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!found) return undefined;
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: sql<string>`now()` as unknown as string })
    .where('id', '=', found.api_token_id)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]),
    )
    .execute();
  return found;
}
