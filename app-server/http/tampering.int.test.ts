import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chainHash, envelopeOf } from '../../domain/chain.ts';
import { ChainWatch } from '../audit/chain-watch.ts';
import { ExportBroken, verifyExport } from '../audit/verify-export.ts';
import { readLog } from '../event-store/read.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import { createLogger } from '../logger.ts';
import { bearer, json } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { allowEventTampering } from '../testing/tamper.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * Someone with write access to the database changes, deletes or reorders event rows directly. The events table has
 * no trigger or rule against it (migrations/0001_event_store.ts), so plain SQL does it, as in event-store.int.test.ts.
 * Each case checks every place that must report it: verifyChain, the server's own chain watch (one error line in
 * the log), GET /api/health and GET /api/ready (still ready: a broken chain stops money, not the servers), the flag
 * in GET /api/admin/chain, and verify-export on an export taken afterwards.
 */

let t: TestApp;
let watch: ChainWatch;
let admin: { id: string; token: string };
let head: { position: number; hash: string };
const dir = mkdtempSync(join(tmpdir(), 'tampering-'));

beforeAll(async () => {
  t = await openTestApp();
  watch = t.deps.chainWatch!;
  // Every test here changes events as an attacker with the table owner's rights could: the append-only trigger off.
  await allowEventTampering(t.database.db);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Some history through the API: an admin, a rate, a pool, two users, two escrows with their payment addresses. */
beforeEach(async () => {
  await t.database.reset();
  watch.forget();
  const market = await openMarket(t, [freshAddress(), freshAddress()]);
  admin = market.admin;
  for (const product of ['Laptop', 'Camera']) {
    const deal = {
      product_service: product,
      description: `A used ${product}`,
      amount_usd: 1000,
      deadline_days: 7,
      seller_email: 'sam@example.com',
    };
    expect((await t.app.request('/api/escrows', json(deal, market.buyer.token))).status).toBe(201);
  }
  head = await readChainHead(t.database.db);
  expect(head.position).toBeGreaterThan(12);
  // The watch has seen the whole history and vouches for it.
  expect(await watch.check()).toMatchObject({ status: 'ok', verifiedUpTo: head.position, broken: null });
  expect(await ready()).toEqual({ status: 200, body: { ready: true, database: true, migrations: true, chain: 'ok' } });
  t.logLines.length = 0;
});

const db = () => t.database.db;
const positionOf = async (type: string) =>
  Number(
    (await sql<{ p: number }>`SELECT min(position) AS p FROM events WHERE type = ${type}`.execute(db())).rows[0]!.p,
  );
/** Changes event `from`'s amount, then recomputes the hashes of events `from` to `to` (and the head if `to` is the last). */
async function forge(from: number, to: number) {
  await sql`UPDATE events SET data = jsonb_set(data, '{amount_sats}', '1') WHERE position = ${from}`.execute(db());
  let prev = (await readLog(db(), { after: from - 1, limit: 1 }))[0]!.prev_hash;
  for (const event of await readLog(db(), { after: from - 1, upTo: to, limit: 1_000 })) {
    const hash = chainHash(prev, envelopeOf(event));
    await sql`UPDATE events SET prev_hash = ${prev}, hash = ${hash} WHERE position = ${event.position}`.execute(db());
    prev = hash;
  }
  if (to === head.position) await sql`UPDATE chain_head SET hash = ${prev} WHERE id = 1`.execute(db());
}
async function ready() {
  const res = await t.app.request('/api/ready');
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function adminChain() {
  const res = await t.app.request('/api/admin/chain', bearer(admin.token));
  expect(res.status).toBe(200);
  return (await res.json()) as {
    ok: boolean;
    first_break: { position: number; reason: string } | null;
    verified_up_to: number | null;
    broken: { position: number; reason: string } | null;
  };
}
/** The tamper lines the app logged (pino level 50 is error). */
const tamperLines = () =>
  t.logLines
    .map((line) => JSON.parse(line) as { level: number; msg?: string; chain_position?: number })
    .filter((l) => l.msg?.startsWith('Event log tampered'));
async function exportBroken(name: string): Promise<ExportBroken> {
  const res = await t.app.request('/api/admin/events/export?from=1', bearer(admin.token));
  expect(res.status).toBe(200);
  const path = join(dir, `${name}.ndjson`);
  writeFileSync(path, await res.text());
  const error = await verifyExport(path).catch((e: unknown) => e);
  expect(error, 'verify-export accepted a tampered export').toBeInstanceOf(ExportBroken);
  return error as ExportBroken;
}

/** Everything that must report a break at `position`, once the watch has seen it. */
async function expectReported(position: number, reason: RegExp, exportLine: number, verifiedUpTo = position - 1) {
  // One clear error line, whatever else looked at the log since.
  const lines = tamperLines();
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 50, chain_position: position });
  expect(lines[0]!.msg).toMatch(new RegExp(`^Event log tampered: event ${position}: `));
  // Still ready (it can serve; money is stopped by the money guard), saying why in the detail, and in the health.
  const r = await ready();
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ ready: true, database: true, migrations: true, chain: 'broken' });
  expect(r.body.detail).toMatch(new RegExp(`^Event log tampered: event ${position}: .*; money movements are stopped$`));
  expect(await (await t.app.request('/api/health')).json()).toMatchObject({ status: 'ok', chain: 'broken' });
  // The flag in the admin ledger (the route verifies the whole log again; the same break logs nothing new).
  const chain = await adminChain();
  expect(chain).toMatchObject({
    ok: false,
    first_break: { position },
    verified_up_to: verifiedUpTo,
    broken: { position },
  });
  expect(chain.broken!.reason).toMatch(reason);
  expect(tamperLines()).toHaveLength(1);
  // Later periodic checks keep the break and stay quiet.
  expect(await watch.check()).toMatchObject({ status: 'broken', broken: { position } });
  expect(tamperLines()).toHaveLength(1);
  // An export taken now fails verify-export at the line of that event (line 1 is the header).
  const broken = await exportBroken(`at-${position}`);
  expect(broken.line).toBe(exportLine);
  expect(broken.message).toMatch(new RegExp(`^line ${exportLine}: `));
}

describe('a changed event', () => {
  it('deep in the log: verifyChain and the full check name it; the incremental check does not re-read it', async () => {
    const p = await positionOf('EscrowCreated');
    expect(p).toBeLessThan(head.position - 1);
    await sql`UPDATE events SET data = jsonb_set(data, '{amount_sats}', '1') WHERE position = ${p}`.execute(db());

    expect(await verifyChain(db())).toMatchObject({
      ok: false,
      firstBreak: { position: p, reason: expect.stringMatching(/hash does not match/) },
    });
    // Only the last verified event and what follows it are read every 30 s: an old row's change waits for the full check.
    expect(await watch.check()).toMatchObject({ status: 'ok' });
    expect(tamperLines()).toHaveLength(0);
    const report = await watch.verifyFully();
    expect(report.firstBreak).toMatchObject({ position: p });
    expect(watch.state()).toMatchObject({ status: 'broken', verifiedUpTo: p - 1, broken: { position: p } });
    await expectReported(p, /hash does not match the event content/, p + 1);
  });

  it('the last verified one: the next incremental check names it', async () => {
    const p = head.position;
    await sql`UPDATE events SET metadata = jsonb_set(metadata, '{actor}', '"system"') WHERE position = ${p}`.execute(
      db(),
    );

    expect(await verifyChain(db())).toMatchObject({ ok: false, firstBreak: { position: p } });
    expect(await watch.check()).toMatchObject({
      status: 'broken',
      broken: {
        position: p,
        reason: 'hash does not match the event content (the event was changed after it was verified)',
      },
    });
    await expectReported(p, /hash does not match the event content/, p + 1);
  });

  it('with its hash recomputed to match: the next event no longer links to it', async () => {
    // A careful forger rewrites the stored hash too; the link from the event after it still breaks.
    const p = await positionOf('EscrowCreated');
    await forge(p, p);
    expect(await verifyChain(db())).toMatchObject({
      ok: false,
      firstBreak: { position: p + 1, reason: 'prev_hash does not match the hash of the event before it' },
    });
    expect(await watch.check()).toMatchObject({ status: 'ok' });
    await watch.verifyFully();
    await expectReported(p + 1, /prev_hash does not match/, p + 2);
  });

  it('with every hash after it and the chain head recomputed: only what the watch remembers catches it', async () => {
    const p = await positionOf('EscrowCreated');
    await forge(p, head.position);
    // The log is consistent again: verifyChain, and verify-export without a published head, cannot tell.
    expect(await verifyChain(db())).toMatchObject({ ok: true });
    // The watch remembers the hash of the last event it verified.
    expect(await watch.check()).toMatchObject({
      status: 'broken',
      broken: {
        position: head.position,
        reason: 'hash differs from the one verified before (the event and its hash were rewritten)',
      },
    });
    expect(tamperLines().map((l) => l.chain_position)).toEqual([head.position]);
    expect(await ready()).toMatchObject({ status: 200, body: { ready: true, chain: 'broken' } });
    // A full check on demand does not clear it: the log verifies, but not against the remembered event.
    expect(await adminChain()).toMatchObject({
      ok: false,
      broken: { position: head.position },
      verified_up_to: head.position - 1,
    });
    expect(tamperLines()).toHaveLength(1);
    // An export checked against the head published before the forgery fails on its last line.
    const res = await t.app.request('/api/admin/events/export?from=1', bearer(admin.token));
    const path = join(dir, 'rewritten.ndjson');
    writeFileSync(path, await res.text());
    const error = await verifyExport(path, { expectHead: head }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportBroken);
    expect((error as ExportBroken).line).toBe(head.position + 1);
    expect((error as ExportBroken).message).toMatch(/not at the published head/);
  });
});

describe('a deleted event', () => {
  it('in the middle: the event after the gap is named', async () => {
    const p = await positionOf('EscrowCreated');
    await sql`DELETE FROM events WHERE position = ${p}`.execute(db());

    expect(await verifyChain(db())).toMatchObject({
      ok: false,
      firstBreak: {
        position: p + 1,
        reason: `expected position ${p} after ${p - 1}, found ${p + 1} (an event was removed or reordered)`,
      },
    });
    expect(await watch.check()).toMatchObject({ status: 'ok' });
    expect((await watch.verifyFully()).firstBreak).toMatchObject({ position: p + 1 });
    // Verified up to the event before the gap; the export skips from line p (event p - 1) to event p + 1 on line p + 1.
    await expectReported(p + 1, /an event was removed or reordered/, p + 1, p - 1);
  });

  it('the last one: the incremental check misses it at once, the chain head still counts it', async () => {
    const p = head.position;
    await sql`DELETE FROM events WHERE position = ${p}`.execute(db());

    expect(await verifyChain(db())).toMatchObject({
      ok: false,
      firstBreak: {
        position: p,
        reason: expect.stringMatching(/the chain head records position \d+, but the log ends at \d+/),
      },
    });
    expect(await watch.check()).toMatchObject({
      status: 'broken',
      broken: { position: p, reason: expect.stringMatching(/the event is gone/) },
    });
    // The export's header still names the head: the missing last line is the one named.
    await expectReported(p, /events were removed from the end/, p + 1);
  });
});

describe('two reordered events', () => {
  it('in the middle: the first of the two is named', async () => {
    const p = await positionOf('EscrowCreated');
    await sql`UPDATE events SET position = -position WHERE position IN (${p}, ${p + 1})`.execute(db());
    await sql`UPDATE events SET position = CASE position WHEN ${-p}::bigint THEN ${p + 1}::bigint ELSE ${p}::bigint END WHERE position < 0`.execute(
      db(),
    );

    expect(await verifyChain(db())).toMatchObject({
      ok: false,
      firstBreak: { position: p, reason: 'prev_hash does not match the hash of the event before it' },
    });
    expect(await watch.check()).toMatchObject({ status: 'ok' });
    expect((await watch.verifyFully()).firstBreak).toMatchObject({ position: p });
    await expectReported(p, /prev_hash does not match/, p + 1);
  });

  it('the last two: the next incremental check names the last', async () => {
    const p = head.position;
    await sql`UPDATE events SET position = -position WHERE position IN (${p - 1}, ${p})`.execute(db());
    await sql`UPDATE events SET position = CASE position WHEN ${-p}::bigint THEN ${p - 1}::bigint ELSE ${p}::bigint END WHERE position < 0`.execute(
      db(),
    );

    expect(await verifyChain(db())).toMatchObject({ ok: false, firstBreak: { position: p - 1 } });
    expect(await watch.check()).toMatchObject({
      status: 'broken',
      broken: { position: p, reason: expect.stringMatching(/changed after it was verified/) },
    });
    // The full check on GET /api/admin/chain then finds the earlier position: one more line, for the new finding.
    const chain = await adminChain();
    expect(chain).toMatchObject({ ok: false, broken: { position: p - 1 }, verified_up_to: p - 2 });
    expect(tamperLines().map((l) => l.chain_position)).toEqual([p, p - 1]);
    expect((await ready()).body.detail).toMatch(
      new RegExp(`^Event log tampered: event ${p - 1}: prev_hash does not match`),
    );
    expect((await exportBroken('last-two')).line).toBe(p);
  });
});

describe('the chain watch', () => {
  it('keeps a break until a full check finds the log whole again', async () => {
    const p = await positionOf('EscrowCreated');
    const original = (await sql<{ data: unknown }>`SELECT data FROM events WHERE position = ${p}`.execute(db()))
      .rows[0]!.data;
    await sql`UPDATE events SET data = jsonb_set(data, '{amount_sats}', '1') WHERE position = ${p}`.execute(db());
    await watch.verifyFully();
    expect(await ready()).toMatchObject({ status: 200, body: { ready: true, chain: 'broken' } });

    await sql`UPDATE events SET data = ${JSON.stringify(original)}::jsonb WHERE position = ${p}`.execute(db());
    expect(await watch.check()).toMatchObject({ status: 'broken' });
    expect((await watch.verifyFully()).ok).toBe(true);
    expect(watch.state()).toMatchObject({ status: 'ok', verifiedUpTo: head.position, broken: null });
    expect(await ready()).toMatchObject({ status: 200, body: { chain: 'ok' } });
    expect(t.logLines.some((l) => l.includes('Event log verifies again'))).toBe(true);
  });

  it('follows new events incrementally, and re-reads the whole log once fullEveryMs has passed', async () => {
    let now = new Date('2026-03-01T00:00:00.000Z');
    const lines: string[] = [];
    const own = new ChainWatch(db(), createLogger('info', { write: (l: string) => void lines.push(l) }), {
      fullEveryMs: 60_000,
      now: () => now,
    });
    expect(own.state()).toMatchObject({ status: 'unverified', verifiedUpTo: null });
    expect(await own.check()).toMatchObject({
      status: 'ok',
      verifiedUpTo: head.position,
      lastFullCheckAt: now.toISOString(),
    });

    // New events: the next check verifies only those, linked to the last verified one.
    const buyer = await t.app.request('/api/auth/login', json({ username: 'ann', password: 'correct horse battery' }));
    const token = ((await buyer.json()) as { access_token: string }).access_token;
    const deal = {
      product_service: 'Bike',
      description: 'A used bike',
      amount_usd: 300,
      deadline_days: 7,
      seller_email: 'sam@example.com',
    };
    expect((await t.app.request('/api/escrows', json(deal, token))).status).toBe(201);
    const newHead = await readChainHead(db());
    expect(newHead.position).toBeGreaterThan(head.position);
    now = new Date(now.getTime() + 30_000);
    expect(await own.check()).toMatchObject({
      status: 'ok',
      verifiedUpTo: newHead.position,
      lastFullCheckAt: '2026-03-01T00:00:00.000Z',
    });

    // An old row changed: not seen by an incremental check, seen by the first check after fullEveryMs.
    const p = await positionOf('BtcRateSet');
    await sql`UPDATE events SET data = jsonb_set(data, '{rate_cents}', '1') WHERE position = ${p}`.execute(db());
    now = new Date(now.getTime() + 20_000);
    expect(await own.check()).toMatchObject({ status: 'ok' });
    now = new Date(now.getTime() + 10_000);
    expect(await own.check()).toMatchObject({ status: 'broken', verifiedUpTo: p - 1, broken: { position: p } });
    expect(lines.filter((l) => l.includes('Event log tampered'))).toHaveLength(1);
  });

  it('starts with a check in the background and stops cleanly', async () => {
    watch.forget();
    const job = watch.start(60_000);
    expect(watch.state().status).toBe('unverified');
    expect((await ready()).body.chain).toMatch(/^(unverified|ok)$/);
    await job.stop();
    expect(watch.state()).toMatchObject({ status: 'ok', verifiedUpTo: head.position });
  });
});
