import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ROUTES } from '../../domain/shared/client-routes.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { createApp } from './app.ts';

// The app shell is one thing wherever a page starts: the CSP nonce in its meta tag (the dialogs' scroll lock needs
// it), never cached (the nonce is per response); and a path that is no page answers 404.

let t: TestApp;
let web: ReturnType<typeof createApp>;
const dir = mkdtempSync(join(tmpdir(), 'escrow-shell-'));

beforeAll(async () => {
  t = await openTestApp();
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Escrow</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-3f9a1c.js'), 'console.log("app")');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
  web = createApp(t.deps, { webDist: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The nonce the page hands to the app, and the one its CSP allows. */
async function nonces(res: Response) {
  const html = await res.text();
  const inPage = /<meta name="csp-nonce" content="([^"]*)"/.exec(html)?.[1];
  const inPolicy = /style-src [^;]*'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  return { html, inPage, inPolicy };
}

const pages = [
  '/',
  '/index.html',
  ...CLIENT_ROUTES.filter((r) => r !== '/').map((r) => r.replace(':id', randomUUID())),
  '/dashboard/',
  '/login?next=%2Fdashboard',
];

describe('the app shell', () => {
  it.each(pages)('%s: 200, the nonce of its own CSP, no-store', async (path) => {
    const res = await web.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { html, inPage, inPolicy } = await nonces(res);
    expect(html).toContain('<div id="root">');
    expect(inPage).toBeTruthy();
    expect(inPage).toBe(inPolicy);
  });

  it('a new nonce for every answer', async () => {
    const first = await nonces(await web.request('/'));
    const second = await nonces(await web.request('/'));
    expect(first.inPage).not.toBe(second.inPage);
  });

  it.each([
    '/nonsense',
    '/escrow',
    '/escrow/1/extra',
    '/admin/secret-panel',
    '/assets/missing.js',
    '/..%2f..%2fetc/passwd',
    '/index.htm',
  ])('%s: 404 with the app (its not-found page), the same way', async (path) => {
    const res = await web.request(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { html, inPage, inPolicy } = await nonces(res);
    expect(html).toContain('<div id="root">');
    expect(inPage).toBe(inPolicy);
  });

  it('files of the build are served as files', async () => {
    const script = await web.request('/assets/index-3f9a1c.js');
    expect([script.status, script.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(await (await web.request('/robots.txt')).text()).toBe('User-agent: *\n');
    expect((await web.request('/', { method: 'HEAD' })).status).toBe(200);
  });
});
