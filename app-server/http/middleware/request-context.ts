import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../logger.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { AppEnv } from '../env.ts';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/**
 * Gives each request an id (the client's X-Request-Id when well formed). When an API request ends: one log line
 * (request id, method, route pattern, path, status, duration, actor; never a header, a query string or a body, where
 * tokens and passwords travel) and its count and duration in the metrics, by route pattern (never the path: ids
 * would make a series per escrow).
 */
export function requestContext(options: { logger: Logger; metrics?: Metrics }): MiddlewareHandler<AppEnv> {
  return async function requestContextMiddleware(c, next) {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.header('X-Request-Id', requestId);
    await next();
    if (!c.req.path.startsWith('/api/')) return;
    const seconds = (performance.now() - started) / 1000;
    const route = c.req.routePath;
    const status = c.res.status;
    options.metrics?.requests.inc({ method: c.req.method, route, status: String(status) });
    options.metrics?.requestSeconds.observe({ method: c.req.method, route }, seconds);
    options.logger.info(
      {
        request_id: requestId,
        method: c.req.method,
        route,
        path: c.req.path,
        status,
        duration_ms: Math.round(seconds * 10_000) / 10,
        actor: c.get('actor') ?? 'anonymous',
      },
      `${c.req.method} ${route} ${status}`,
    );
  };
}
