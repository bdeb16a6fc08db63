import type { ApiTokenScope } from '../../../contract/api-tokens.ts';
import { forbidden } from '../../../domain/shared/errors.ts';

/**
 * Where an API token never reaches, whatever its scopes: admin routes, the tokens themselves, the account (sign-in,
 * password, 2FA, profile) and the first-admin set-up. A token may read who it acts for (GET /api/auth/me).
 */
const OUT_OF_REACH = /^\/api\/(admin|tokens|auth|profile|setup)(\/|$)/;
const READS = new Set(['GET', 'HEAD']);

/** Refuses (403) a call an API token with `scopes` may not make: reads need `read`, anything else `write`. */
export function checkApiTokenReach(method: string, path: string, scopes: readonly ApiTokenScope[]): void {
  if (OUT_OF_REACH.test(path) && !(method === 'GET' && path === '/api/auth/me')) {
    throw forbidden(
      'API tokens cannot be used here: admin routes, tokens, sign-in, password and 2FA need a signed-in session',
    );
  }
  const needed: ApiTokenScope = READS.has(method) ? 'read' : 'write';
  if (!scopes.includes(needed)) throw forbidden(`This API token has no ${needed} scope`);
}
