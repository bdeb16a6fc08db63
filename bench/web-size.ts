/**
 * What a browser downloads for a route of the built web app: every script and stylesheet Chromium requests while
 * the page loads, gzip-compressed as a server would send them. Also lists any request to another host.
 *   npm run build:web && npx tsx bench/web-size.ts [--route / --route /admin]
 */
import { serve } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { secretBox } from '../app-server/auth/secret-box.ts';
import { loadConfig } from '../app-server/config.ts';
import { createEventStore } from '../app-server/event-store/append.ts';
import { createApp } from '../app-server/http/app.ts';
import { createLogger } from '../app-server/logger.ts';
import { projections } from '../projections/registry.ts';
import { withBenchDatabase } from './bench-database.ts';

export interface RouteWeight {
  route: string;
  js_gzip_bytes: number;
  css_gzip_bytes: number;
  files: string[];
  foreign_requests: string[];
}

const webDist = new URL('../web/dist/', import.meta.url).pathname;

/** Debian's Chromium (or CHROMIUM_PATH); never a downloaded browser. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`no Chromium at ${path}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  return path;
}

export async function measureRoutes(routes: string[]): Promise<RouteWeight[]> {
  return withBenchDatabase(async (database) => {
    const app = createApp(
      { config: loadConfig({}), database, store: createEventStore(database.db, projections), logger: createLogger('silent'), secrets: secretBox(randomBytes(32)) },
      { webDist },
    );
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const weights: RouteWeight[] = [];
      for (const route of routes) {
        const page = await browser.newPage();
        const files = new Set<string>();
        const foreign: string[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.origin !== base && url.protocol !== 'data:') foreign.push(request.url());
          else if (/\.(js|css)$/.test(url.pathname)) files.add(url.pathname);
        });
        await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
        await page.close();
        const gz = (ext: string) =>
          [...files].filter((f) => f.endsWith(ext)).reduce((sum, f) => sum + gzipSync(readFileSync(`${webDist}${f.slice(1)}`), { level: 9 }).length, 0);
        weights.push({ route, js_gzip_bytes: gz('.js'), css_gzip_bytes: gz('.css'), files: [...files].sort(), foreign_requests: foreign });
      }
      return weights;
    } finally {
      await browser.close();
      server.close();
    }
  }, process.env.BENCH_DATABASE_URL ?? null);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { route: { type: 'string', multiple: true, default: ['/'] } } });
  for (const w of await measureRoutes(values.route!)) {
    const kb = (n: number) => (n / 1024).toFixed(1);
    console.log(`${w.route}: JS ${kb(w.js_gzip_bytes)} KB gzip, CSS ${kb(w.css_gzip_bytes)} KB gzip (${w.files.length} files)`);
    for (const f of w.files) console.log(`  ${f}`);
    for (const f of w.foreign_requests) console.log(`  request to another host: ${f}`);
  }
}
