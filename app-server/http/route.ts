import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { secondFactorMiddleware, type SecondFactorNeed } from './middleware/admin-step-up.ts';
import { requireRole } from './middleware/authenticate.ts';

type Method = 'get' | 'post' | 'put' | 'delete';
type Extra = Omit<RouteConfig, 'method' | 'path' | 'summary' | 'responses'>;

/** Documents that a route needs a session: `Authorization: Bearer <token>` (the scheme is registered in app.ts). */
const BEARER = [{ bearer: [] }];
const NEEDS_SESSION = new Set(['requireUserMiddleware', 'requireRoleMiddleware']);
const signedIn = (extra: Extra) =>
  [extra.middleware ?? []].flat().some((m) => NEEDS_SESSION.has((m as { name?: string }).name ?? ''))
    ? { security: BEARER }
    : {};

/** Every write an admin may make declares whether it needs a fresh second factor; a read declares nothing. */
type SecondFactorArg<M extends Method> = M extends 'get' ? [] : [secondFactor: SecondFactorNeed];

/** The route's own middleware, then the step-up its declaration calls for (after the role check it runs behind). */
const withSecondFactor = (extra: Extra, need: SecondFactorNeed | undefined) =>
  need ? { middleware: [...[extra.middleware ?? []].flat(), secondFactorMiddleware(need)] } : {};

/**
 * A typed OpenAPI route: its request schemas validate the call and document it. `secondFactor`: for the routes an
 * admin shares with users (webhooks), whether the admin's call is a power (see `adminRoute`).
 */
export const route = <M extends Method, P extends string, X extends Extra, R extends RouteConfig['responses']>(
  method: M,
  path: P,
  summary: string,
  extra: X,
  responses: R,
  secondFactor?: SecondFactorNeed,
) =>
  createRoute({
    method,
    path,
    summary,
    ...signedIn(extra),
    ...extra,
    ...withSecondFactor(extra, secondFactor),
    responses,
  });

/**
 * The same, for admins only (anonymous: 401, others: 403), checked before the body is read. A write declares last
 * whether it is an admin power (`ADMIN_POWER`: a fresh 2FA code each time) or why it is none (`notAPower(reason)`).
 */
export const adminRoute = <M extends Method, P extends string, X extends Extra, R extends RouteConfig['responses']>(
  method: M,
  path: P,
  summary: string,
  extra: X,
  responses: R,
  ...[secondFactor]: SecondFactorArg<M>
) =>
  createRoute({
    method,
    path,
    summary,
    security: BEARER,
    ...extra,
    middleware: [requireRole('admin'), ...(secondFactor ? [secondFactorMiddleware(secondFactor)] : [])] as const,
    responses,
  });
