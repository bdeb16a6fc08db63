/**
 * Screenshots of the integration screens (the console's Overview and Webhooks, the profile's API tokens and
 * webhooks) at 1366 and 390 px, each checked with axe (no serious or critical violation) and for sideways scrolling
 * on the phone. Against a running server filled by `seed-demo`, started with WEBHOOK_ALLOW_PRIVATE=true so the
 * endpoints below (a receiver this script runs on 127.0.0.1) are accepted:
 *   npx tsx e2e/integrations-screenshots.ts --base URL --password DEMO_PASSWORD --receiver-port PORT [--out DIR]
 */
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { onConsoleError, storeSession } from './screenshot-page.ts';
import { chromiumLaunchOptions } from './support/chromium.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    password: { type: 'string' },
    'receiver-port': { type: 'string' },
    out: { type: 'string', default: 'e2e/.artifacts/integrations' },
  },
});
if (!values.base || !values.password || !values['receiver-port']) {
  console.error(
    'Usage: npx tsx e2e/integrations-screenshots.ts --base URL --password DEMO_PASSWORD --receiver-port PORT [--out DIR]',
  );
  process.exit(2);
}
const base = values.base.replace(/\/$/, '');
const port = Number(values['receiver-port']);

async function call<T>(path: string, init: { token?: string; json?: unknown; method?: string } = {}): Promise<T> {
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const signIn = async (username: string) =>
  (await call<{ access_token: string }>('/auth/login', { json: { username, password: values.password } })).access_token;

// A receiver that takes every other message and fails the rest, so the delivery log shows both.
let seen = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(seen++ % 2 ? 500 : 204).end());
}).listen(port, '127.0.0.1');

const admin = await signIn('admin');
const alice = await signIn('alice');
const events = ['escrow.created', 'escrow.funded', 'escrow.released', 'escrow.refunded', 'escrow.dispute_opened'];
const hooks = await call<{ endpoint: { id: string } }[]>('/admin/webhooks', { token: admin });
if (hooks.length === 0) {
  const made = await call<{ endpoint: { id: string } }>('/admin/webhooks', {
    token: admin,
    json: { url: `http://127.0.0.1:${port}/escrow-events`, event_types: events },
  });
  await call('/admin/webhooks/' + made.endpoint.id + '/test', { token: admin, method: 'POST' });
  await call('/admin/webhooks/' + made.endpoint.id + '/test', { token: admin, method: 'POST' });
  const mine = await call<{ endpoint: { id: string } }>('/webhooks', {
    token: alice,
    json: { url: `http://127.0.0.1:${port}/alice`, event_types: events },
  });
  await call('/webhooks/' + mine.endpoint.id + '/test', { token: alice, method: 'POST' });
  const token = await call<{ token: string }>('/tokens', {
    token: alice,
    json: { name: 'Shop sync', scopes: ['read', 'write'] },
  });
  await call('/escrows', { token: token.token });
  await call('/tokens', { token: alice, json: { name: 'Accounting export', scopes: ['read'] } });
  await new Promise((r) => setTimeout(r, 5_000)); // the delivery loop runs every two seconds
}

const pages = [
  ['overview', admin, '/admin?tab=overview', 'Volume and fees per month'],
  ['webhooks', admin, '/admin?tab=webhooks', 'Delivery log'],
  ['tokens-and-webhooks', alice, '/profile?tab=integrations', 'Your tokens'],
] as const;

mkdirSync(values.out!, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
const problems: string[] = [];
try {
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    for (const [name, token, path, waitFor] of pages) {
      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      onConsoleError(page, (text) => problems.push(`${name} ${width}: console error ${text}`));
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${name} ${width}: ${r.status()} from ${r.url()}`);
      });
      await storeSession(page, base, token);
      await page.goto(`${base}${path}`);
      await page.getByText(waitFor).first().waitFor();
      if (name !== 'overview') await page.getByRole('button', { name: 'Delivery log' }).first().click();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(800);
      const file = `${values.out}/${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      const axe = await new AxeBuilder({ page }).analyze();
      for (const v of axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        problems.push(`${name} ${width}: axe ${v.id} (${v.nodes.length}) ${v.help}`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      if (sideways) problems.push(`${name} ${width}: scrolls sideways`);
      console.log(
        `${file}: ${axe.violations.length} axe findings (${axe.violations.map((v) => `${v.id}:${v.impact}`).join(', ') || 'none'})`,
      );
      await context.close();
    }
  }
} finally {
  await browser.close();
  receiver.close();
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
