import type { MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { DomainError, forbidden } from '../../../domain/shared/errors.ts';
import { API_TOKEN_PREFIX, apiTokenUser } from '../../accounts/api-tokens.ts';
import { sessionUser } from '../../auth/sessions.ts';
import type { Database } from '../../db/schema.ts';
import type { AppEnv } from '../env.ts';
import { checkApiTokenReach } from './api-token-reach.ts';

/** What a session holding a temporary password may still do: see who it is, change the password, sign out. */
const WHILE_PASSWORD_MUST_CHANGE = new Set([
  'GET /api/auth/me',
  'POST /api/auth/change-password',
  'POST /api/auth/logout',
]);

/**
 * Reads `Authorization: Bearer <token>`. A live session makes the request the user's; a suspended user is stopped
 * here with 403 on every call, and so is a user signed in with a temporary password (after an admin's reset) on
 * every call but the three that lead to a new password. A missing or dead token leaves the request anonymous
 * (routes that need a user say 401 themselves). An API token (`esc_…`) makes the request its user's within the
 * token's scopes and reach (see api-token-reach.ts); it never carries admin powers.
 */
export function authenticate(options: { db: Kysely<Database> }): MiddlewareHandler<AppEnv> {
  return async function authenticateMiddleware(c, next) {
    const header = c.req.header('authorization');
    const token = header?.match(/^Bearer\s+([A-Za-z0-9_-]{20,200})$/)?.[1];
    if (token?.startsWith(API_TOKEN_PREFIX)) {
      const found = await apiTokenUser(options.db, token);
      if (found) {
        const { escrows_position, must_change_password, api_token_id, api_token_scopes, ...user } = found;
        if (user.is_frozen) throw forbidden('Account suspended');
        if (user.role === 'admin') throw forbidden('API tokens never carry admin powers; this account is an admin now');
        if (must_change_password)
          throw new DomainError(
            'forbidden',
            'Change your temporary password first (POST /api/auth/change-password)',
            {},
            'password_change_required',
          );
        checkApiTokenReach(c.req.method, c.req.path, api_token_scopes);
        c.set('user', user);
        c.set('escrowsPosition', Number(escrows_position));
        c.set('actor', user.id);
        c.set('apiToken', { id: api_token_id, scopes: api_token_scopes });
      }
    } else if (token) {
      const found = await sessionUser(options.db, token);
      if (found) {
        const { escrows_position, must_change_password, ...user } = found;
        if (user.is_frozen) throw forbidden('Account suspended');
        if (must_change_password && !WHILE_PASSWORD_MUST_CHANGE.has(`${c.req.method} ${c.req.path}`)) {
          throw new DomainError(
            'forbidden',
            'Change your temporary password first (POST /api/auth/change-password)',
            {},
            'password_change_required',
          );
        }
        c.set('mustChangePassword', must_change_password);
        c.set('user', user);
        c.set('escrowsPosition', Number(escrows_position));
        c.set('actor', user.id);
        c.set('token', token);
      }
    }
    await next();
  };
}

/** Refuses anonymous requests with 401. */
export function requireUser(): MiddlewareHandler<AppEnv> {
  return async function requireUserMiddleware(c, next) {
    if (!c.get('user')) throw new DomainError('unauthenticated', 'Not signed in');
    await next();
  };
}

/** Refuses anyone but the given role with 403 (anonymous: 401). */
export function requireRole(role: 'admin'): MiddlewareHandler<AppEnv> {
  return async function requireRoleMiddleware(c, next) {
    const user = c.get('user');
    if (!user) throw new DomainError('unauthenticated', 'Not signed in');
    if (user.role !== role) throw forbidden('Admins only');
    await next();
  };
}

/** The signed-in user; only call after requireUser/requireRole. */
export function currentUser(c: { get: (key: 'user') => AppEnv['Variables']['user'] }) {
  const user = c.get('user');
  if (!user) throw new DomainError('unauthenticated', 'Not signed in');
  return user;
}
