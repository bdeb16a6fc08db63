import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';

type OpenAPIRegistry = OpenAPIHono['openAPIRegistry'];
import { ERROR_DESCRIPTIONS, type ErrorStatus, errorSchema } from '../../contract/errors.ts';

/** Routes whose calls are counted against a limit per client or per account (429 with Retry-After). */
const RATE_LIMITED = new Set([
  'post /api/auth/login',
  'post /api/auth/register',
  'post /api/reviews',
  'post /api/contact',
  'post /api/escrows',
  'post /api/auth/resend-verification',
]);

const errorAnswer = (status: ErrorStatus) => ({
  description: ERROR_DESCRIPTIONS[status],
  content: { 'application/json': { schema: errorSchema } },
});

/** The group a route is listed under in /api/docs: its resource, and whether it is the admins'. */
export function tagOf(path: string): string {
  const [first = '', second = ''] = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean);
  const names: Record<string, string> = {
    auth: 'Accounts',
    profile: 'Accounts',
    setup: 'First start',
    escrows: 'Escrows',
    evidence: 'Escrows',
    reviews: 'Reviews',
    'btc-rate': 'Pricing',
    health: 'Service',
    ready: 'Service',
    site: 'Site',
    'pgp-key': 'Site',
    contact: 'Site',
  };
  if (first !== 'admin') return names[first] ?? 'Other';
  const admin: Record<string, string> = {
    users: 'users',
    reviews: 'reviews',
    'btc-rate': 'pricing',
    addresses: 'address pool',
    escrows: 'escrows',
    disputes: 'escrows',
    'pending-verifications': 'escrows',
    'audit-logs': 'audit',
    events: 'audit',
    replay: 'audit',
    chain: 'audit',
  };
  return `Admin: ${admin[second] ?? second}`;
}

/**
 * Its group (tagOf) and the refusals a route can give, as `{detail, code}` answers, read from what the route declares: a body (malformed,
 * too large, wrong type, refused: 400, 413, 415, 422), path parameters (422, and 404 when there is no such record),
 * a query (422), sign-in (401) and a role or account state (403), a change (409: changed meanwhile, duplicate, or
 * not allowed in the record's status), a rate limit (429), and the database being away (503, everywhere but
 * /health). Statuses the route documents itself are kept as they are.
 */
export function withDocumentation<R extends RouteConfig>(config: R): R {
  const statuses = new Set<ErrorStatus>();
  const request = config.request ?? {};
  const signedIn = (config.security?.length ?? 0) > 0;
  const changes = config.method !== 'get';
  if (request.body) for (const s of [400, 413, 415, 422] as const) statuses.add(s);
  if (request.params) statuses.add(422).add(404);
  if (request.query) statuses.add(422);
  if (signedIn) statuses.add(401).add(403);
  if (changes) statuses.add(409);
  if (RATE_LIMITED.has(`${config.method} ${config.path}`)) statuses.add(429);
  if (config.path !== '/api/health') statuses.add(503);
  const responses: Record<string, unknown> = { ...config.responses };
  for (const status of [...statuses].sort()) responses[status] ??= errorAnswer(status);
  return {
    ...config,
    operationId: config.operationId ?? operationIdOf(config.method, config.path),
    tags: config.tags ?? [tagOf(config.path)],
    responses,
  };
}

/**
 * A route's operationId, from its method and path, so it is unique (one route per method and path) and stable (it
 * changes only with the path): `GET /api/admin/escrows/{id}/history` is `getAdminEscrowsByIdHistory`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      return param ? ['by', ...param.split(/[-_]/)] : segment.split(/[-_.]/);
    });
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/**
 * Documents every route of the app (its full path known once all are mounted): groups and error answers. Called
 * once, after the routes are registered and before the document is first served.
 */
export function documentRoutes(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The access_token of POST /api/auth/login, or an API token (esc_…) made with POST /api/tokens. An API token acts for its user within its scopes: ' +
      '`read` for GET calls, `write` for the others; it never reaches admin routes, /api/tokens, sign-in, password, 2FA or the profile (403), and never carries admin powers.',
  });
  for (const definition of registry.definitions) {
    if (definition.type === 'route') definition.route = withDocumentation(definition.route);
  }
}
