import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => t.close());

describe('runtime endpoints', () => {
  it('answers /api/health', async () => {
    const res = await t.app.request('/api/health');
    expect(res.status).toBe(200);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await res.json()).toEqual({ status: 'ok', version: pkg.version, chain: 'unverified' });
  });

  it('says ready when the database answers and migrations are applied', async () => {
    const res = await t.app.request('/api/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true, database: true, migrations: true, chain: 'unverified' });
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.request('/api/openapi.json');
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/ready']));
  });

  it('answers an unknown API route with 404 and a detail, never HTML', async () => {
    const res = await t.app.request('/api/no-such-thing', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ detail: 'No such API route', code: 'not_found' });
  });

  it('sets the security headers and a request id on every response', async () => {
    const res = await t.app.request('/api/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'"); // an API answer loads nothing
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps a well-formed client request id and replaces a hostile one', async () => {
    const kept = await t.app.request('/api/health', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(kept.headers.get('x-request-id')).toBe('client-req-12345');
    const replaced = await t.app.request('/api/health', { headers: { 'x-request-id': 'bad id\twith tabs' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a body over the limit with 413 and a detail', async () => {
    const big = 'x'.repeat(12 * 1024 * 1024);
    // A route that takes a body (a path no route answers says 404 before reading it: body-limits.int.test.ts).
    const res = await t.app.request('/api/auth/login', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'Request body is too large', code: 'payload_too_large' });
  });
});
