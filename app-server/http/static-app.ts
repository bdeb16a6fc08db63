import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * The built web app: hashed assets cached for a year, any other GET that is not an API call answered with
 * index.html so the client router takes it (history fallback).
 */
export function staticApp(webDist: string) {
  const app = new Hono<AppEnv>();
  const indexPath = join(webDist, 'index.html');
  app.use(
    '/assets/*',
    serveStatic({
      root: webDist,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.use('*', serveStatic({ root: webDist }));
  app.get('*', (c) => {
    if (!existsSync(indexPath)) {
      return c.text('The web app is not built. Run `npm run build:web` or `npm start`.', 503);
    }
    c.header('Cache-Control', 'no-store');
    const nonce = (c.get as (key: string) => string | undefined)('secureHeadersNonce') ?? '';
    return c.html(readFileSync(indexPath, 'utf8').replace('<head>', `<head>\n    <meta name="csp-nonce" content="${nonce}" />`));
  });
  return app;
}
