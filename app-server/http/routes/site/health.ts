import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { healthSchema, readinessSchema } from '../../../../contract/site.ts';
import { migrationsReady } from '../../../site/queries.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';
import { VERSION } from '../../../version.ts';

const health = createRoute({
  method: 'get',
  path: '/health',
  summary: 'The process is up: its version and its own check of the hash chain',
  responses: {
    200: {
      description: 'Alive',
      content: { 'application/json': { schema: healthSchema } },
    },
  },
});

const readiness = readinessSchema;
const ready = createRoute({
  method: 'get',
  path: '/ready',
  summary: 'The database answers and every migration is applied (a broken chain stops money, not the server)',
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: readiness } } },
    503: { description: 'Not ready', content: { 'application/json': { schema: readiness } } },
  },
});

/**
 * /api/health and /api/ready: for load balancers and orchestrators. Ready means "can serve": a broken chain is no
 * reason to take every app server (and the console with them) out of the proxy; it stops money movements (the
 * money guard), and shows here, in the metrics and in the console.
 */
export function healthRoutes({ database, chainWatch }: AppDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(health, (c) =>
      c.json({ status: 'ok' as const, version: VERSION, chain: chainWatch?.state().status ?? 'unverified' }, 200),
    )
    .openapi(ready, async (c) => {
      const watched = chainWatch?.state();
      const chain = watched?.status ?? 'unverified';
      try {
        const migrations = await migrationsReady(database.db);
        const body = { ready: migrations, database: true, migrations, chain };
        if (!migrations) return c.json({ ...body, detail: 'Migrations are not applied' }, 503);
        if (watched?.broken) {
          const { position, reason } = watched.broken;
          return c.json(
            { ...body, detail: `Event log tampered: event ${position}: ${reason}; money movements are stopped` },
            200,
          );
        }
        return c.json(body, 200);
      } catch {
        return c.json(
          { ready: false, database: false, migrations: false, chain, detail: 'The database is unreachable' },
          503,
        );
      }
    });
}
