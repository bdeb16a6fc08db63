import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { applyServerTimeouts } from './server-timeouts.ts';

/**
 * What the server reads of a request body, and for how long: the probe's findings (a 10 MB body buffered before
 * the 401 of an anonymous upload, or the 404 of a path no route answers; a stalled body held for 317 s; 1 MB of
 * nested arrays parsed; connections that never send a byte kept for ever), each as a rule.
 */
let t: TestApp;
let server: ServerType;
let port: number;
const BODY_MS = 1_500;
beforeAll(async () => {
  t = await openTestApp({
    BODY_READ_TIMEOUT_MS: String(BODY_MS),
    UPLOADS_PER_CLIENT: '1',
    UPLOADS_IN_ALL: '2',
    TRUST_PROXY: '127.0.0.1',
  });
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  applyServerTimeouts(server as Server, { idleMs: 1_000, headersMs: 5_000, bodyMs: BODY_MS });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    (server as unknown as { closeAllConnections: () => void }).closeAllConnections();
    server.close(() => resolve());
  });
  await t?.close();
});

/** A body that counts how much of it the server pulled: 40 chunks of 256 KiB. */
function countedBody(chunk = new Uint8Array(256 * 1024).fill(0x20), chunks = 40) {
  const counter = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= chunks * chunk.byteLength) return controller.close();
        counter.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, counter };
}

const post = (path: string, body: ReadableStream<Uint8Array> | string, headers: Record<string, string>) =>
  t.app.request(
    new Request(`http://localhost${path}`, { method: 'POST', body, duplex: 'half', headers } as RequestInit),
  );

/** A raw HTTP exchange: what is written, and everything read until the server closes or `waitMs` passes. */
function rawExchange(
  write: (socket: Socket) => void,
  waitMs: number,
): Promise<{ text: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => write(socket));
    let text = '';
    let closedAfterMs: number | null = null;
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedAfterMs });
    }, waitMs);
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      clearTimeout(timer);
      resolve({ text, closedAfterMs });
    });
  });
}

async function buyerWithEscrow() {
  await t.database.reset();
  const { buyer } = await openMarket(t, [freshAddress()]);
  const created = await t.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      buyer.token,
    ),
  );
  const { id } = (await created.json()) as { id: string };
  return { token: buyer.token, id };
}

describe('the session and the route come before the body', () => {
  it('an anonymous upload gets 401 and a path no route answers 404, with none of the body read', async () => {
    const anonymous = countedBody();
    const res = await post(`/api/escrows/${randomUUID()}/mark-paid`, anonymous.body, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(res.status).toBe(401);
    expect(anonymous.counter.pulled).toBe(0);
    for (const path of ['/api/anything/mark-paid', '/api/escrows/x/y/mark-paid', '/api/health', '/nowhere']) {
      const unknown = countedBody();
      const answer = await post(path, unknown.body, { 'content-type': 'application/json' });
      expect([path, answer.status]).toEqual([path, 404]);
      expect(unknown.counter.pulled).toBe(0);
    }
  });

  it('the upload limit is for the upload route only: every other call stops at 1 MB', async () => {
    const { token } = await buyerWithEscrow();
    // 10 MiB to a JSON call by a signed-in user: refused after a little over 1 MB, not read to the end.
    const big = countedBody();
    const refused = await post('/api/escrows', big.body, {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    });
    expect(refused.status).toBe(413);
    expect(big.counter.pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * 256 * 1024);
  });

  it('refuses JSON nested deeper than 32 levels as it arrives, before any parser sees it', async () => {
    const nested = countedBody(new TextEncoder().encode('['.repeat(64 * 1024)), 16);
    const started = performance.now();
    const res = await post('/api/auth/login', nested.body, { 'content-type': 'application/json' });
    expect([res.status, ((await res.json()) as { detail: string }).detail]).toEqual([
      422,
      'body: JSON nested deeper than 32 levels',
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(nested.counter.pulled).toBeLessThan(16 * 64 * 1024);
    // Brackets inside strings do not count, and ordinary nesting passes.
    const fine = await t.app.request(
      '/api/auth/login',
      json({ username: 'nobody', password: `${'['.repeat(100)}{{{{` }),
    );
    expect(fine.status).toBe(401);
  });
});

describe('deadlines', () => {
  it('a body that stalls gets 408 at BODY_READ_TIMEOUT_MS and its connection is closed', async () => {
    const { text, closedAfterMs } = await rawExchange((socket) => {
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username":',
      );
    }, 8_000);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('Request body was not received within');
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(BODY_MS + 2_000);
  });

  it('an anonymous stalled chunked upload is answered 401 without waiting for its body', async () => {
    const { text, closedAfterMs } = await rawExchange((socket) => {
      socket.write(
        `POST /api/escrows/${randomUUID()}/mark-paid HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const mib = Buffer.alloc(1024 * 1024, 0x61);
      socket.write(`${mib.length.toString(16)}\r\n`);
      socket.write(mib);
      socket.write('\r\n');
    }, 8_000);
    expect(text).toMatch(/^HTTP\/1\.1 401/);
    expect(closedAfterMs!).toBeLessThan(BODY_MS + 2_000);
  });

  it('a connection that sends nothing is closed after the idle timeout', async () => {
    const { text, closedAfterMs } = await rawExchange(() => undefined, 6_000);
    expect(text).toBe('');
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(3_000);
  });
});

describe('uploads at once', () => {
  it('one client gets 429 past its share, and everyone 503 past the server-wide cap, each with a detail', async () => {
    const { token, id } = await buyerWithEscrow();
    const stalled = (from: string) =>
      rawExchange((socket) => {
        socket.write(
          `POST /api/escrows/${id}/mark-paid HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Forwarded-For: ${from}\r\n` +
            'Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\n',
        );
      }, 8_000);
    const first = stalled('10.0.0.1');
    await new Promise((r) => setTimeout(r, 300));
    const upload = (from: string) =>
      fetch(`http://127.0.0.1:${port}/api/escrows/${id}/mark-paid`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-forwarded-for': from,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'notes=sent',
      });
    const sameClient = await upload('10.0.0.1');
    expect(sameClient.status).toBe(429);
    expect(((await sameClient.json()) as { detail: string }).detail).toMatch(
      /Too many uploads at once from this address/,
    );
    const second = stalled('10.0.0.2');
    await new Promise((r) => setTimeout(r, 300));
    const third = await upload('10.0.0.3');
    expect(third.status).toBe(503);
    expect(((await third.json()) as { detail: string }).detail).toMatch(/as many uploads as it takes/);
    expect((await first).text).toMatch(/^HTTP\/1\.1 408/);
    await second;
    // The slots are given back: the upload now goes through.
    expect((await upload('10.0.0.3')).status).toBe(200);
  });
});
