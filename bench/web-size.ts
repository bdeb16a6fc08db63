/**
 * What a browser downloads for a route of the built web app: every script and stylesheet Chromium requests while
 * the page loads, counted as the bytes it received (compressed as the server sent them: Brotli to Chromium) and the
 * encoding they came in. Also lists any request to another host.
 *   npm run build:web && npx tsx bench/web-size.ts [--route / --route /admin]
 */
import { serve } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { secretBox } from '../app-server/auth/secret-box.ts';
import { ensureAdmin } from '../app-server/accounts/first-admin.ts';
import { loadConfig } from '../app-server/config.ts';
import { openAppStore } from '../app-server/app-store.ts';
import { createApp } from '../app-server/http/app.ts';
import { createLogger } from '../app-server/logger.ts';
import { withBenchDatabase } from './bench-database.ts';

export interface RouteWeight {
  route: string;
  /** Bytes received over the wire (the encoded bodies), summed over the route's scripts and stylesheets. */
  js_bytes: number;
  css_bytes: number;
  /** The Content-Encoding of each of them, e.g. ['br']; 'identity' for a file sent as it is. */
  encodings: string[];
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

/**
 * A buyer with an escrow that has its payment address, made through the API as people would: the signed-in route
 * `/escrow/{id}?pay=1` (the page with its payment dialog and QR code) is measured as that buyer.
 */
async function seedBuyerEscrow(app: ReturnType<typeof createApp>, deps: Parameters<typeof createApp>[0]) {
  const post = async (
    path: string,
    init: { json?: unknown; form?: Record<string, string>; token?: string; method?: string },
  ) => {
    const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const body = init.json !== undefined ? JSON.stringify(init.json) : new URLSearchParams(init.form).toString();
    const res = await app.request(`/api${path}`, { method: init.method ?? 'POST', headers, body });
    if (!res.ok) throw new Error(`web-size seeding: ${path} answered ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const password = 'web size bench password';
  await ensureAdmin(deps, { username: 'benchadmin', email: 'benchadmin@example.com', password });
  const admin = (await post('/auth/login', { json: { username: 'benchadmin', password } })).access_token!;
  await post('/admin/btc-rate', { form: { btc_usd_rate: '50000' }, token: admin, method: 'PUT' });
  await post('/admin/addresses', {
    form: { address_string: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' },
    token: admin,
  });
  await post('/auth/register', {
    json: {
      full_name: 'Bench Buyer',
      email: 'benchbuyer@example.com',
      username: 'benchbuyer',
      password,
      confirm_password: password,
      role: 'buyer',
    },
  });
  const mail = await deps.database.db
    .selectFrom('mail_outbox')
    .select('body')
    .where('to_address', '=', 'benchbuyer@example.com')
    .executeTakeFirstOrThrow();
  await post('/auth/verify-email', { json: { token: /token=([A-Za-z0-9_-]+)/.exec(mail.body)?.[1] } });
  const token = (await post('/auth/login', { json: { username: 'benchbuyer', password } })).access_token!;
  const escrow = await post('/escrows', {
    json: {
      product_service: 'Camera',
      description: 'Mirrorless body',
      amount_usd: '1000',
      seller_email: 'seller@example.com',
    },
    token,
  });
  return { token, escrowId: escrow.id! };
}

/** The signed-in escrow page, with its payment dialog open (its QR code chunk included). */
export const ESCROW_ROUTE = '/escrow/{id}';

export async function measureRoutes(routes: string[]): Promise<RouteWeight[]> {
  return withBenchDatabase(async (database) => {
    // Its seeding admin has no authenticator: what is measured is the pages, not the step-up.
    const config = loadConfig({ PASSWORD_HASH_COST: '10', ADMIN_2FA_REQUIRED: 'false' });
    const deps = {
      config,
      database,
      store: openAppStore(database.db, config),
      logger: createLogger('silent'),
      secrets: secretBox(randomBytes(32)),
    };
    const app = createApp(deps, { webDist });
    const signedIn = routes.includes(ESCROW_ROUTE) ? await seedBuyerEscrow(app, deps) : null;
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const weights: RouteWeight[] = [];
      for (const route of routes) {
        const page = await browser.newPage();
        let path = route;
        if (route === ESCROW_ROUTE && signedIn) {
          await page.goto(`${base}/about`);
          await page.evaluate((token) => localStorage.setItem('escrow.session', token), signedIn.token);
          path = `/escrow/${signedIn.escrowId}?pay=1`;
        }
        const files = new Set<string>();
        const foreign: string[] = [];
        const received: Array<Promise<{ path: string; bytes: number; encoding: string }>> = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.origin !== base && url.protocol !== 'data:') foreign.push(request.url());
          else if (/\.(js|css)$/.test(url.pathname)) files.add(url.pathname);
        });
        page.on('requestfinished', (request) => {
          const url = new URL(request.url());
          if (url.origin !== base || !/\.(js|css)$/.test(url.pathname)) return;
          received.push(
            (async () => ({
              path: url.pathname,
              bytes: (await request.sizes()).responseBodySize,
              encoding: (await request.response())?.headers()['content-encoding'] ?? 'identity',
            }))(),
          );
        });
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
        if (route === ESCROW_ROUTE) await page.locator('svg.qr-code').waitFor({ timeout: 10_000 });
        const sizes = await Promise.all(received);
        await page.close();
        const sum = (ext: string) => sizes.filter((f) => f.path.endsWith(ext)).reduce((total, f) => total + f.bytes, 0);
        const encodings = [...new Set(sizes.map((f) => f.encoding))].sort();
        weights.push({
          route,
          js_bytes: sum('.js'),
          css_bytes: sum('.css'),
          encodings,
          files: [...files].sort(),
          foreign_requests: foreign,
        });
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
    console.log(
      `${w.route}: JS ${kb(w.js_bytes)} KB, CSS ${kb(w.css_bytes)} KB as received (${w.encodings.join(', ')}; ${w.files.length} files)`,
    );
    for (const f of w.files) console.log(`  ${f}`);
    for (const f of w.foreign_requests) console.log(`  request to another host: ${f}`);
  }
}
