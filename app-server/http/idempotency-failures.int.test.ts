import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { openAppStore } from '../app-store.ts';
import { json } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { describeOnPostgres } from '../testing/postgres-only.ts';
import { createApp } from './app.ts';
import { IDEMPOTENCY_LEASE_SECONDS } from './middleware/idempotency.ts';

// The database killed in the middle of a command, then the same Idempotency-Key retried: exactly one escrow, and the
// same answer every time. The server talks to PostgreSQL through a TCP proxy that cuts every connection at a chosen
// point of the command's transaction (after the idempotency record is marked, around its COMMIT), as an outage does.

/** server -> client: CommandComplete "COMMIT". */
const COMMIT_DONE = Buffer.from([0x43, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);
/** client -> server: the simple query "commit" that ends a transaction. */
const COMMIT_SENT = Buffer.from([0x51, 0, 0, 0, 11, ...Buffer.from('commit'), 0]);
/** The command's transaction marks its idempotency record: what tells it from any other transaction. */
const MARKING = Buffer.from('"committed_at"');

type Cut = 'before-commit' | 'after-commit';

/** A TCP proxy to PostgreSQL that can drop every connection at one point of the next marked transaction. */
class CuttingProxy {
  readonly sockets = new Set<Socket>();
  private server!: Server;
  private armed: Cut | null = null;
  private marked = false;
  down = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start() {
    this.server = createServer((client) => {
      if (this.down) return void client.destroy();
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('data', (chunk: Buffer) => {
        if (this.armed && chunk.includes(MARKING)) this.marked = true;
        if (this.armed === 'before-commit' && this.marked && chunk.includes(COMMIT_SENT)) return this.cut();
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (this.armed === 'after-commit' && this.marked && chunk.includes(COMMIT_DONE)) return this.cut(); // committed; the answer is lost
        client.write(chunk);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  arm(cut: Cut) {
    this.armed = cut;
    this.marked = false;
  }

  private cut() {
    this.armed = null;
    this.down = true;
    for (const s of this.sockets) s.destroy();
  }

  restore() {
    this.down = false;
  }

  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describeOnPostgres('Idempotency-Key through a database outage in the middle of a command (PostgreSQL)', () => {
  let t: TestApp;
  let proxy: CuttingProxy;
  let proxied: DatabaseHandle;
  let app: ReturnType<typeof createApp>;
  let buyer: { token: string };

  beforeAll(async () => {
    t = await openTestApp();
    ({ buyer } = await openMarket(t));
    // The test database's own URL, credentials included: TEST_DATABASE_URL's server, or a container's (where that
    // variable is not set).
    const direct = new URL(t.database.url!);
    proxy = new CuttingProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.start();
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    proxied = await openDatabase({ databaseUrl: viaProxy.toString(), poolSize: 4 });
    // A second server process, on the same database, reached through the proxy.
    app = createApp({ ...t.deps, database: proxied, store: openAppStore(proxied.db, t.deps.config) });
  });
  afterAll(async () => {
    await proxied?.close();
    await proxy?.stop();
    await t?.close();
  });

  const deal = (product: string) =>
    json(
      { product_service: product, description: 'Mirrorless', amount_usd: '100.00', seller_email: 'sam@example.com' },
      buyer.token,
    );
  const escrowsNamed = (product: string) =>
    t.database.db.selectFrom('escrows').select('id').where('product_service', '=', product).execute();
  const create = (product: string, key: string) => {
    const init = deal(product);
    return app.request('/api/escrows', { ...init, headers: { ...init.headers, 'idempotency-key': key } });
  };

  it('killed after the commit: the retry answers the committed escrow, never 503, never a second one', async () => {
    const key = randomUUID();
    proxy.arm('after-commit');
    const first = await create('Camera A', key);
    expect(first.status).toBe(503); // the connection died with the COMMIT: the server cannot know it went through
    proxy.restore();
    expect(await escrowsNamed('Camera A')).toHaveLength(1);

    const retry = await create('Camera A', key);
    expect(retry.status).toBe(201);
    const answer = (await retry.json()) as { id: string; product_service: string; side: string };
    expect(answer).toMatchObject({
      id: (await escrowsNamed('Camera A'))[0]!.id,
      product_service: 'Camera A',
      side: 'buyer',
    });
    const again = await create('Camera A', key);
    expect([again.status, await again.json()]).toEqual([201, answer]);
    expect(await escrowsNamed('Camera A')).toHaveLength(1);
  });

  it('killed before the commit: nothing was done, and once the lease runs out the retry does it, once', async () => {
    const key = randomUUID();
    proxy.arm('before-commit');
    const first = await create('Camera B', key);
    expect(first.status).toBe(503);
    proxy.restore();
    expect(await escrowsNamed('Camera B')).toHaveLength(0);

    // The first request's hold on the key is a short lease, not a lock until the daily clean-up.
    const early = await create('Camera B', key);
    expect(early.status).toBe(409);
    const wait = Number(early.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_SECONDS);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 200));

    const retry = await create('Camera B', key);
    expect(retry.status).toBe(201);
    const answer = await retry.json();
    const again = await create('Camera B', key);
    expect([again.status, await again.json()]).toEqual([201, answer]);
    expect(await escrowsNamed('Camera B')).toHaveLength(1);
  }, 30_000);
});

describe('Idempotency-Key records left by a failure (any backend)', () => {
  let t: TestApp;
  let buyer: { token: string };
  beforeAll(async () => {
    t = await openTestApp();
    ({ buyer } = await openMarket(t));
  });
  afterAll(async () => t?.close());

  const create = (product: string, key: string) => {
    const init = json(
      { product_service: product, description: 'Mirrorless', amount_usd: '100.00', seller_email: 'sam@example.com' },
      buyer.token,
    );
    return t.app.request('/api/escrows', { ...init, headers: { ...init.headers, 'idempotency-key': key } });
  };
  const escrowsNamed = (product: string) =>
    t.database.db.selectFrom('escrows').select('id').where('product_service', '=', product).execute();

  it('an answer lost after the command committed is rebuilt from the read model', async () => {
    const key = randomUUID();
    const first = await create('Lens', key);
    const answer = await first.json();
    // What a crash between the commit and keeping the answer leaves: the command's own mark, no answer.
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ status: null, response_body: null })
      .where('key', '=', key)
      .execute();
    const retry = await create('Lens', key);
    expect([retry.status, await retry.json()]).toEqual([201, answer]);
    expect(await escrowsNamed('Lens')).toHaveLength(1);
  });

  it('a key whose request died before committing is free again once its lease ran out', async () => {
    const key = randomUUID();
    const first = await create('Tripod', key);
    expect(first.status).toBe(201);
    // What a request that died before its commit leaves: the claim, with a lease that has run out, and no command.
    await t.database.db.deleteFrom('escrows').where('product_service', '=', 'Tripod').execute();
    await t.database.db
      .updateTable('idempotency_keys')
      .set({
        status: null,
        response_body: null,
        committed_at: null,
        committed_stream: null,
        lease_until: new Date(Date.now() - 1000).toISOString(),
      })
      .where('key', '=', key)
      .execute();
    const retry = await create('Tripod', key);
    expect(retry.status).toBe(201);
    expect(await escrowsNamed('Tripod')).toHaveLength(1);
  });
});
