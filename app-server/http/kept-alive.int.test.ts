import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, registerUser } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

// A refused body must not break the connection it came on: a kept-alive client (or a proxy pooling upstream
// connections for many users) sends its next request on the same socket.

let t: TestApp;
let server: ServerType;
let base: string;

beforeAll(async () => {
  t = await openTestApp();
  await registerUser(t, 'keptalive');
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    (server as unknown as { closeAllConnections: () => void }).closeAllConnections();
    server.close(() => resolve());
  });
  await t?.close();
});

const oneMegabyteJson = () => JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'y' });
const signIn = () => JSON.stringify({ username: 'keptalive', password: PASSWORD });

describe('a kept-alive client after a refused body', () => {
  it('gets every answer through fetch, alternating 1 MB bodies and sign-ins 50 times', async () => {
    const targets = ['/api/auth/login', '/api/reviews', '/api/auth/verify-email', '/api/auth/register', '/api/contact'];
    const outcomes: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const path = targets[i % targets.length]!;
      const big = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: oneMegabyteJson(),
      })
        .then(async (res) => `${res.status} ${((await res.json()) as { detail: string }).detail}`)
        .catch((error: Error) => `error ${error.message} ${String((error.cause as Error | undefined)?.message)}`);
      const small = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: signIn(),
      })
        .then((res) => String(res.status))
        .catch((error: Error) => `error ${error.message} ${String((error.cause as Error | undefined)?.message)}`);
      outcomes.push(big, small);
    }
    const expected = Array.from({ length: 50 }, () => ['413 Request body is too large', '200']).flat();
    expect(outcomes).toEqual(expected);
  }, 60_000);

  it('keeps one socket open across refused bodies', async () => {
    const client = keptAliveClient();
    try {
      for (let i = 0; i < 20; i += 1) {
        const big = await client.send('/api/reviews', oneMegabyteJson());
        expect(big.status).toBe(413);
        expect(JSON.parse(big.text)).toEqual({ detail: 'Request body is too large', code: 'payload_too_large' });
        expect(big.connection).toBe('keep-alive');
        expect((await client.send('/api/auth/login', signIn())).status).toBe(200);
      }
      expect(client.sockets.size).toBe(1);
    } finally {
      client.close();
    }
  }, 60_000);

  it('keeps the socket after an upload refused before it was read (anonymous: 401)', async () => {
    const client = keptAliveClient();
    try {
      const boundary = 'x-boundary';
      const upload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="notes"\r\n\r\npaid\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\n`,
        ),
        Buffer.alloc(5 * 1024 * 1024, 'a'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      for (let i = 0; i < 5; i += 1) {
        const refused = await client.send(
          '/api/escrows/00000000-0000-4000-8000-000000000000/mark-paid',
          upload,
          `multipart/form-data; boundary=${boundary}`,
        );
        expect(refused.status).toBe(401);
        expect((await client.send('/api/auth/login', signIn())).status).toBe(200);
      }
      expect(client.sockets.size).toBe(1);
    } finally {
      client.close();
    }
  }, 60_000);

  it('says Connection: close on a body too large to read away, and the next request works', async () => {
    const client = keptAliveClient();
    try {
      const huge = await client.send('/api/auth/login', Buffer.alloc(20 * 1024 * 1024, 'a'));
      expect([huge.status, huge.connection]).toEqual([413, 'close']);
      expect(JSON.parse(huge.text)).toEqual({ detail: 'Request body is too large', code: 'payload_too_large' });
      expect((await client.send('/api/auth/login', signIn())).status).toBe(200);
    } finally {
      client.close();
    }
  }, 60_000);
});

/** Node's own HTTP client on one kept-alive socket at a time, counting the sockets it had to open. */
function keptAliveClient() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  const send = (path: string, body: string | Buffer, contentType = 'application/json') =>
    new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${base}${path}`,
        { method: 'POST', agent, headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
        },
      );
      req.on('socket', (socket) => sockets.add(socket));
      // A server that answered and closed while the body was still going out: the answer is what counts.
      req.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
      );
      req.end(body);
    });
  return { send, sockets, close: () => agent.destroy() };
}
