import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { isClientRoute } from '../../domain/shared/client-routes.ts';
import type { AppEnv } from './env.ts';

/**
 * The built web app: hashed assets cached for a year, other files of the build as they are, and the app shell
 * (index.html with the response's CSP nonce, never cached) for every page: `/`, `/index.html` and each client
 * route, answered 200; any other path gets the same shell under a 404, and the client router shows its not-found
 * page there.
 */
export function staticApp(webDist: string) {
  const app = new Hono<AppEnv>();
  const indexPath = join(webDist, 'index.html');
  const shell = (c: Context<AppEnv>, status: 200 | 404) => {
    if (!existsSync(indexPath)) {
      return c.text('The web app is not built. Run `npm run build:web` or `npm start`.', 503);
    }
    c.header('Cache-Control', 'no-store');
    const nonce = (c.get as (key: string) => string | undefined)('secureHeadersNonce') ?? '';
    return c.html(
      readFileSync(indexPath, 'utf8').replace('<head>', `<head>\n    <meta name="csp-nonce" content="${nonce}" />`),
      status,
    );
  };
  // Before the file server, which would send index.html as a plain file (no nonce, cacheable).
  app.get('/', (c) => shell(c, 200));
  app.get('/index.html', (c) => shell(c, 200));
  // Set once the file is found (serveStatic's onFound comes after its answer is made, too late for a header).
  app.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use('/assets/*', serveStatic({ root: webDist }));
  app.use('*', serveStatic({ root: webDist }));
  app.get('*', (c) => shell(c, isClientRoute(c.req.path) ? 200 : 404));
  return app;
}
