import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { withDocumentation } from './documentation.ts';
import { requireRole } from './middleware/authenticate.ts';

type Method = 'get' | 'post' | 'put' | 'delete';
type Extra = Omit<RouteConfig, 'method' | 'path' | 'summary' | 'responses'>;

/** A typed OpenAPI route: its request schemas validate the call and document it. */
export const route = <M extends Method, P extends string, X extends Extra, R extends RouteConfig['responses']>(
  method: M,
  path: P,
  summary: string,
  extra: X,
  responses: R,
) => createRoute(withDocumentation({ method, path, summary, ...extra, responses }));

/** The same, for admins only (anonymous: 401, others: 403), checked before the body is read. */
export const adminRoute = <M extends Method, P extends string, X extends Extra, R extends RouteConfig['responses']>(
  method: M,
  path: P,
  summary: string,
  extra: X,
  responses: R,
) => createRoute(withDocumentation({ method, path, summary, middleware: [requireRole('admin')] as const, ...extra, responses }));
