/**
 * The server process of the API benchmarks: the real app wired as `npm start` wires it (same runtime, same pool),
 * plus the baseline route GET /bench/pk/:id, a plain Hono route doing one primary-key SELECT of a review through
 * the same pool. Configured by the same environment as the server (DATABASE_URL, PORT, ADMIN_*).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { ensureAdmin } from '../app-server/accounts/first-admin.ts';
import { loadConfig } from '../app-server/config.ts';
import { createApp } from '../app-server/http/app.ts';
import { createLogger } from '../app-server/logger.ts';
import { openRuntime } from '../app-server/runtime.ts';

const config = loadConfig();
const deps = await openRuntime(config, createLogger('warn'));
if (config.ADMIN_USERNAME && config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
  await ensureAdmin(deps, {
    username: config.ADMIN_USERNAME,
    email: config.ADMIN_EMAIL,
    password: config.ADMIN_PASSWORD,
  });
}
const server = new Hono();
server.get('/bench/pk/:id', async (c) => {
  const row = await deps.database.db
    .selectFrom('reviews')
    .selectAll()
    .where('id', '=', c.req.param('id'))
    .executeTakeFirst();
  return row ? c.json(row) : c.json({ detail: 'Review not found' }, 404);
});
server.route('/', createApp(deps, { webDist: new URL('../web/dist', import.meta.url).pathname }));
serve({ fetch: server.fetch, port: config.PORT, hostname: '127.0.0.1' }, () => console.log('bench api server ready'));
process.on('SIGTERM', () => void deps.database.close().then(() => process.exit(0)));
