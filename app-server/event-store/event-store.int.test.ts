import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../domain/events.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { settingsAggregate } from '../../domain/aggregates.ts';
import { projections } from '../../projections/registry.ts';
import { handle } from '../commands/handle.ts';
import type { Database } from '../db/schema.ts';
import { allowEventTampering } from '../testing/tamper.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { createEventStore } from './append.ts';
import type { AppendOptions, EventStore, StreamAppend } from './event-store.ts';
import { readChainHead } from './chain-head.ts';
import { readLog, readStream } from './read.ts';
import { verifyChain } from './verify-chain.ts';

const meta = { actor: 'system', request_id: 'test' };
const rate = (rate_cents: number): DomainEvent => ({ type: 'BtcRateSet', data: { rate_cents } });
const settings = (expectedVersion: number, ...events: DomainEvent[]): StreamAppend => ({
  streamId: 'settings:pricing',
  streamType: 'settings',
  expectedVersion,
  events,
});
const newAddress = (id = randomUUID()): StreamAppend => ({
  streamId: `address:${id}`,
  streamType: 'address',
  expectedVersion: 0,
  events: [{ type: 'AddressAdded', data: { address_id: id, address: `bc1q${id.slice(0, 8)}`, network: 'mainnet' } }],
});

let t: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  t = await openTestDatabase();
  store = createEventStore(t.db, []);
});
beforeEach(async () => t.reset());
afterAll(async () => t.dispose());

describe('event store', () => {
  it('appends with versions, gapless positions and a hash chain that verifies', async () => {
    await store.append([settings(0, rate(100), rate(200))], meta);
    await store.append([settings(2, rate(300))], meta);
    const { version, events } = await readStream(t.db, 'settings:pricing');
    expect(version).toBe(3);
    expect(events.map((e) => [e.position, e.stream_version, e.data])).toEqual([
      [1, 1, { rate_cents: 100 }],
      [2, 2, { rate_cents: 200 }],
      [3, 3, { rate_cents: 300 }],
    ]);
    expect(events[1]!.prev_hash).toBe(events[0]!.hash);
    expect(await readChainHead(t.db)).toEqual({ position: 3, hash: events[2]!.hash });
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 3 });
  });

  it('refuses event data that does not fit its schema, storing nothing', async () => {
    await expect(store.append([settings(0, rate(-5))], meta)).rejects.toThrow();
    expect(await readLog(t.db)).toEqual([]);
  });

  it('lets exactly one of ten concurrent writers at the same expected version win', async () => {
    await store.append([settings(0, rate(1))], meta);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => store.append([settings(1, rate(1000 + i))], meta)),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    for (const r of lost) expect((r.reason as DomainError).code).toBe('conflict');
    expect((await readStream(t.db, 'settings:pricing')).version).toBe(2);
  });

  it('appends to several streams all or nothing', async () => {
    await store.append([settings(0, rate(1))], meta);
    const before = await readChainHead(t.db);
    // The address stream is new and fine; the settings stream is stale: neither may be written.
    await expect(store.append([newAddress(), settings(0, rate(2))], meta)).rejects.toBeInstanceOf(DomainError);
    expect(await readChainHead(t.db)).toEqual(before);
    expect(await readLog(t.db)).toHaveLength(1);
    const streams = await t.db.selectFrom('streams').select('stream_id').execute();
    expect(streams.map((s) => s.stream_id)).toEqual(['settings:pricing']);
  });

  it('rolls the events back when a write in the same transaction fails', async () => {
    await expect(
      store.append([newAddress()], meta, {
        alsoWrite: async () => {
          throw new Error('outbox write failed');
        },
      }),
    ).rejects.toThrow('outbox write failed');
    expect(await readLog(t.db)).toEqual([]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 0 });
  });

  it('inserts the rows that go with an append in its own statement, and none with an append that is refused or fails', async () => {
    const mail = (to: string | null) => ({
      alsoInsert: () => [{ table: 'mail_outbox', rows: [{ to_address: to, subject: 'Rate set', body: '-' }] }],
    });
    await store.append([settings(0, rate(1))], meta, mail('kept@example.com'));
    await expect(store.append([settings(0, rate(2))], meta, mail('stale@example.com'))).rejects.toBeInstanceOf(
      DomainError,
    );
    // A row the table refuses (no recipient) takes the events down with it.
    await expect(store.append([settings(1, rate(3))], meta, mail(null))).rejects.toThrow();
    const mails = await t.db.selectFrom('mail_outbox').select(['to_address', 'sent_at']).execute();
    expect(mails).toEqual([{ to_address: 'kept@example.com', sent_at: null }]);
    expect((await readLog(t.db)).map((e) => e.data)).toEqual([{ rate_cents: 1 }]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 1 });
  });

  it('hands out positions in commit order: an append that starts first but commits last is not skipped', async () => {
    let releaseSlow!: () => void;
    const slowHolding = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let slowInside!: () => void;
    const slowStarted = new Promise<void>((resolve) => {
      slowInside = resolve;
    });
    const slow = store.append([newAddress()], meta, {
      alsoWrite: async () => {
        slowInside();
        await slowHolding;
      },
    });
    await slowStarted;
    const fast = store.append([newAddress()], meta);
    // A reader during the open append (on PGlite it waits for the single connection) sees a gapless prefix.
    const midRead = readLog(t.db);
    await new Promise((r) => setTimeout(r, 50));
    releaseSlow();
    const [slowEvents, fastEvents, seenMidway] = await Promise.all([slow, fast, midRead]);
    expect(seenMidway.map((e) => e.position)).toEqual([1, 2].slice(0, seenMidway.length));
    expect(slowEvents[0]!.position).toBe(1);
    expect(fastEvents[0]!.position).toBe(2);
  });

  it('never lets a tailing reader skip an event under 40 concurrent appends', async () => {
    const seen: number[] = [];
    let done = false;
    const tail = (async () => {
      let after = 0;
      while (!done || after < 40) {
        const page = await readLog(t.db, { after, limit: 100 });
        for (const e of page) seen.push(e.position);
        after = page.at(-1)?.position ?? after;
        if (page.length === 0) await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await Promise.all(Array.from({ length: 40 }, () => store.append([newAddress()], meta)));
    done = true;
    await tail;
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

describe('two processes on one log (each with its own memory of it)', () => {
  it('reads the rows the other process changed: a stale remembered row is never written back', async () => {
    const [first, second] = [createEventStore(t.db, projections), createEventStore(t.db, projections)];
    const id = randomUUID();
    const address = (version: number, event: DomainEvent): StreamAppend => ({
      streamId: `address:${id}`,
      streamType: 'address',
      expectedVersion: version,
      events: [event],
    });
    await first.append(
      [address(0, { type: 'AddressAdded', data: { address_id: id, address: 'bc1qfirst', network: 'mainnet' } })],
      meta,
    );
    await second.append([address(1, { type: 'AddressChanged', data: { address: 'bc1qchanged' } })], meta);
    await first.append([address(2, { type: 'AddressAssigned', data: { escrow_id: randomUUID() } })], meta);
    const row = await t.db
      .selectFrom('addresses')
      .select(['address_string', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ address_string: 'bc1qchanged', status: 'assigned' });
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 3 });
  });

  const outbox: Record<string, (to: string) => AppendOptions> = {
    'in a transaction (alsoWrite)': (to) => ({
      alsoWrite: async (trx: Transaction<Database>) => {
        await trx.insertInto('mail_outbox').values({ to_address: to, subject: 'Address added', body: '-' }).execute();
      },
    }),
    'in its statement (alsoInsert)': (to) => ({
      alsoInsert: () => [{ table: 'mail_outbox', rows: [{ to_address: to, subject: 'Address added', body: '-' }] }],
    }),
  };
  it.each(Object.keys(outbox))(
    'writes what goes with an append %s once, chained after the other process moved the head',
    async (how) => {
      const [first, second] = [createEventStore(t.db, projections), createEventStore(t.db, projections)];
      const mail = outbox[how]!;
      await first.append([newAddress()], meta, mail('one@example.com'));
      await second.append([newAddress()], meta, mail('two@example.com'));
      const [third] = await first.append([newAddress()], meta, mail('three@example.com'));
      expect(third!.position).toBe(3);
      const mails = await t.db.selectFrom('mail_outbox').select('to_address').orderBy('id').execute();
      expect(mails.map((m) => m.to_address)).toEqual(['one@example.com', 'two@example.com', 'three@example.com']);
      expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 3 });
    },
  );

  it('runs a command on a stream the other process appended to since: read again, not refused', async () => {
    const [first, second] = [createEventStore(t.db, projections), createEventStore(t.db, projections)];
    const setRate = (rate_cents: number) => ({ type: 'setPricing' as const, rate_cents });
    const run = (store: EventStore, rate_cents: number) =>
      handle(store, settingsAggregate, 'pricing', setRate(rate_cents), { actor: 'system', requestId: 'test' });
    await run(first, 100);
    await run(second, 200);
    const third = await run(first, 300);
    expect(third.version).toBe(3);
    expect((await readStream(t.db, 'settings:pricing')).events.map((e) => e.data)).toEqual([
      { rate_cents: 100 },
      { rate_cents: 200 },
      { rate_cents: 300 },
    ]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 3 });
  });
});

describe('verifyChain on a tampered table', () => {
  beforeEach(async () => {
    // As an attacker with the table owner's rights could: events refuses UPDATE and DELETE otherwise.
    await allowEventTampering(t.db);
    await store.append([settings(0, rate(100), rate(200), rate(300), rate(400))], meta);
    expect((await verifyChain(t.db)).ok).toBe(true);
  });

  it('names a changed event', async () => {
    await sql`UPDATE events SET data = '{"rate_cents": 999}' WHERE position = 3`.execute(t.db);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, firstBreak: { position: 3 } });
  });

  it('names the event after a removed one', async () => {
    await sql`DELETE FROM events WHERE position = 2`.execute(t.db);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, firstBreak: { position: 3 } });
  });

  it('detects two reordered events', async () => {
    await sql`UPDATE events SET position = -position WHERE position IN (2, 3)`.execute(t.db);
    await sql`UPDATE events SET position = CASE position WHEN -2 THEN 3 ELSE 2 END WHERE position < 0`.execute(t.db);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, firstBreak: { position: 2 } });
  });

  it('detects events removed from the end', async () => {
    await sql`DELETE FROM events WHERE position = 4`.execute(t.db);
    expect(await verifyChain(t.db)).toMatchObject({ ok: false, firstBreak: { position: 4 } });
  });

  it('detects a chain head that records another hash for the last event (every event intact)', async () => {
    await sql`UPDATE chain_head SET hash = ${'ab'.repeat(32)} WHERE id = 1`.execute(t.db);
    expect(await verifyChain(t.db)).toMatchObject({
      ok: false,
      firstBreak: { position: 4, reason: 'the chain head records another hash for the last event' },
    });
  });
});
