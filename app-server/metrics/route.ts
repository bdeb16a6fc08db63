import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.ts';
import type { Metrics } from './metrics.ts';
import { refreshStateGauges } from './state.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** True when the request carries `Authorization: Bearer <token>` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics in Prometheus' text format. `token`: the bearer token a scraper must send; undefined serves it to
 * anyone who reaches it (only on the separate METRICS_PORT). `served: false` answers 404: not on this port.
 */
export function metricsRoutes(
  deps: Pick<AppDeps, 'database' | 'chainWatch'>,
  metrics: Metrics,
  access: { served: boolean; token: string | undefined },
) {
  return new Hono().get('/metrics', async (c) => {
    if (!access.served)
      return c.json(
        { detail: 'Metrics are not served here: set METRICS_TOKEN or METRICS_PORT', code: 'not_found' },
        404,
      );
    if (access.token !== undefined && !bearerMatches(c.req.header('authorization'), access.token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ detail: 'Metrics need the bearer token set in METRICS_TOKEN', code: 'unauthenticated' }, 401);
    }
    await refreshStateGauges(metrics, deps.database.db, deps.chainWatch);
    c.header('Content-Type', metrics.registry.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await metrics.registry.metrics());
  });
}
