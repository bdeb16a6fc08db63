import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, PASSWORD, signedInUser } from '../../testing/accounts.ts';
import { openTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(async () => t.close());

interface RequestLine {
  request_id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  actor: string;
  msg: string;
}
const requestLines = () =>
  t.logLines.map((l) => JSON.parse(l) as Partial<RequestLine>).filter((l) => l.request_id && l.route);

describe('the request log', () => {
  it('writes one line per API request: id, method, route pattern, status, duration and actor, and nothing of the body', async () => {
    const ann = await signedInUser(t, 'ann', 'buyer');
    t.logLines.length = 0;
    const me = await t.app.request('/api/auth/me', {
      ...bearer(ann.token),
      headers: { authorization: `Bearer ${ann.token}`, 'x-request-id': 'trace-me-0001' },
    });
    const missing = await t.app.request('/api/escrows/00000000-0000-4000-8000-000000000009', bearer(ann.token));
    const refused = await t.app.request('/api/auth/login', json({ username: 'ann', password: `${PASSWORD} typo` }));
    expect([me.status, missing.status, refused.status]).toEqual([200, 404, 401]);

    const lines = requestLines();
    expect(lines).toHaveLength(3);
    const annId = ((await me.json()) as { id: string }).id;
    expect(lines[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      request_id: 'trace-me-0001',
      method: 'GET',
      route: '/api/auth/me',
      path: '/api/auth/me',
      status: 200,
      duration_ms: expect.any(Number),
      actor: annId,
      msg: 'GET /api/auth/me 200',
    });
    expect(lines[1]).toMatchObject({ route: '/api/escrows/:id', status: 404, actor: annId });
    expect(lines[2]).toMatchObject({ method: 'POST', route: '/api/auth/login', status: 401, actor: 'anonymous' });
    expect(t.logLines.join('\n')).not.toContain('typo');
    expect(t.logLines.join('\n')).not.toContain(ann.token);
  });
});
