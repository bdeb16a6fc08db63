import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { healthSchema, readinessSchema } from '../../../../contract/site.ts';
import { migrationsReady } from '../../../site/queries.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { AppEnv } from '../../env.ts';

const health = createRoute({
  method: 'get',
  path: '/health',
  summary: 'The process is up',
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
  summary: 'The database answers, every migration is applied and the event log is not known to be tampered with',
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: readiness } } },
    503: { description: 'Not ready', content: { 'application/json': { schema: readiness } } },
  },
});

/** /api/health and /api/ready: for load balancers and orchestrators. */
export function healthRoutes({ database, chainWatch }: AppDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(health, (c) => c.json({ status: 'ok' as const }, 200))
    .openapi(ready, async (c) => {
      const watched = chainWatch?.state();
      const chain = watched?.status ?? 'unverified';
      try {
        const migrations = await migrationsReady(database.db);
        const body = { ready: migrations && chain !== 'broken', database: true, migrations, chain };
        if (!migrations) return c.json({ ...body, detail: 'Migrations are not applied' }, 503);
        if (watched?.broken) {
          const { position, reason } = watched.broken;
          return c.json({ ...body, detail: `Event log tampered: event ${position}: ${reason}` }, 503);
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
