import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../logger.ts';
import type { AppEnv } from '../env.ts';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/** Gives each request an id (the client's X-Request-Id when well formed), and logs one line when it ends. */
export function requestContext(options: { logger: Logger }): MiddlewareHandler<AppEnv> {
  return async function requestContextMiddleware(c, next) {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.header('X-Request-Id', requestId);
    await next();
    if (!c.req.path.startsWith('/api/')) return;
    options.logger.info({
      request_id: requestId,
      method: c.req.method,
      route: c.req.routePath,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      actor: c.get('actor') ?? 'anonymous',
    });
  };
}
