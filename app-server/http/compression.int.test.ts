import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { createApp } from './app.ts';
import { preferredEncoding } from './middleware/compression.ts';

// Text answers go out compressed when the client accepts it (the issue: a 254 KB script and a 328 KB openapi.json
// went out as they were); what is small, already compressed or streamed goes out as it is.

let t: TestApp;
let web: ReturnType<typeof createApp>;
const dir = mkdtempSync(join(tmpdir(), 'escrow-compression-'));
const script = `console.log(${JSON.stringify('escrow '.repeat(4000))});\n`;
const picture = Buffer.alloc(20_000, 7);

beforeAll(async () => {
  t = await openTestApp();
  mkdirSync(join(dir, 'assets'), { recursive: true });
  // As small as the real shell (about 950 bytes with its nonce): still compressed.
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><title>Escrow</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(40)}</body></html>`,
  );
  writeFileSync(join(dir, 'assets', 'index-3f9a1c.js'), script);
  writeFileSync(join(dir, 'assets', 'logo-3f9a1c.png'), picture);
  web = createApp(t.deps, { webDist: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, encoding = 'gzip, deflate, br') =>
  web.request(path, { headers: { 'accept-encoding': encoding } });
const decoded = async (res: Response) => {
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get('content-encoding');
  return (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString(
    'utf8',
  );
};

describe('compression', () => {
  it.each([
    ['/', 'the app shell'],
    ['/assets/index-3f9a1c.js', 'the main script'],
    ['/api/openapi.json', 'the OpenAPI document'],
  ])('sends %s (%s) with Brotli, or gzip to a client that takes only gzip', async (path) => {
    const br = await get(path);
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-length')).toBeNull(); // the plain length would be wrong: clients wait for it
    const gzip = await get(path, 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    const plain = await get(path, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i); // a shared cache must not hand it to a browser
    const text = await decoded(plain);
    if (path !== '/') expect(await decoded(br)).toBe(text); // the shell differs by its nonce each time
    expect((await decoded(gzip)).length).toBeGreaterThan(512);
  });

  it('keeps the hashed assets cacheable for a year, compressed or not', async () => {
    const res = await get('/assets/index-3f9a1c.js');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await decoded(res)).toBe(script);
  });

  it('leaves small answers, pictures and the NDJSON export as they are', async () => {
    const health = await get('/api/health');
    expect(health.headers.get('content-encoding')).toBeNull();
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const png = await get('/assets/logo-3f9a1c.png');
    expect(png.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await png.arrayBuffer()).equals(picture)).toBe(true);
    const admin = await signedInAdmin(t);
    const exported = await web.request('/api/admin/events/export?from=1', {
      headers: { 'accept-encoding': 'br, gzip', authorization: `Bearer ${admin.token}` },
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(exported.headers.get('content-encoding')).toBeNull();
    expect((await exported.text()).split('\n').length).toBeGreaterThan(1);
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('br;q=0, *;q=0.1')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
  });
});
