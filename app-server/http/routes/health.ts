import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { migrationsApplied } from '../../db/migrate.ts';
import type { AppDeps, AppEnv } from '../env.ts';

const health = createRoute({
  method: 'get',
  path: '/health',
  summary: 'The process is up',
  responses: {
    200: {
      description: 'Alive',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
  },
});

const readiness = z.object({
  ready: z.boolean(),
  database: z.boolean(),
  migrations: z.boolean(),
  detail: z.string().optional(),
});
const ready = createRoute({
  method: 'get',
  path: '/ready',
  summary: 'The database answers and every migration is applied',
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: readiness } } },
    503: { description: 'Not ready', content: { 'application/json': { schema: readiness } } },
  },
});

export function healthRoutes({ database }: AppDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(health, (c) => c.json({ status: 'ok' as const }, 200))
    .openapi(ready, async (c) => {
      try {
        await sql`SELECT 1`.execute(database.db);
        const migrations = await migrationsApplied(database.db);
        const body = { ready: migrations, database: true, migrations };
        return migrations
          ? c.json(body, 200)
          : c.json({ ...body, detail: 'Migrations are not applied' }, 503);
      } catch {
        return c.json(
          { ready: false, database: false, migrations: false, detail: 'The database is unreachable' },
          503,
        );
      }
    });
}
