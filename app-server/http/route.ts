import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { requireRole } from './middleware/authenticate.ts';

type Method = 'get' | 'post' | 'put' | 'delete';
type Extra = Omit<RouteConfig, 'method' | 'path' | 'summary' | 'responses'>;

/** Documents that a route needs a session: `Authorization: Bearer <token>` (the scheme is registered in app.ts). */
const BEARER = [{ bearer: [] }];
const NEEDS_SESSION = new Set(['requireUserMiddleware', 'requireRoleMiddleware']);
const signedIn = (extra: Extra) =>
  [extra.middleware ?? []].flat().some((m) => NEEDS_SESSION.has((m as { name?: string }).name ?? '')) ? { security: BEARER } : {};

/** A typed OpenAPI route: its request schemas validate the call and document it. */
export const route = <M extends Method, P extends string, X extends Extra, R extends RouteConfig['responses']>(
  method: M,
  path: P,
  summary: string,
  extra: X,
  responses: R,
) => createRoute({ method, path, summary, ...signedIn(extra), ...extra, responses });

/** The same, for admins only (anonymous: 401, others: 403), checked before the body is read. */
export const adminRoute = <M extends Method, P extends string, X extends Extra, R extends RouteConfig['responses']>(
  method: M,
  path: P,
  summary: string,
  extra: X,
  responses: R,
) => createRoute({ method, path, summary, middleware: [requireRole('admin')] as const, security: BEARER, ...extra, responses });
