import { randomUUID } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DomainError } from '../../domain/shared/errors.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { projections } from '../../projections/registry.ts';
import { replayProjections } from '../replay.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { createEventStore } from './append.ts';
import type { AppendOptions, EventStore, StreamAppend } from './event-store.ts';
import { readChainHead } from './chain-head.ts';
import { readLog } from './read.ts';
import { verifyChain } from './verify-chain.ts';

const meta = { actor: 'system', request_id: 'group-commit-test' };
const address = (id: string, n: number) => `bc1q${id.slice(0, 8)}x${n}`;
const change = (id: string, expectedVersion: number, n: number): StreamAppend => ({
  streamId: `address:${id}`,
  streamType: 'address',
  expectedVersion,
  events: [{ type: 'AddressChanged', data: { address: address(id, n) } }],
});

let t: TestDatabase;
/** Two stores on one database: two server processes, each with its own queue and memory. */
let stores: [EventStore, EventStore];
beforeAll(async () => {
  t = await openTestDatabase();
});
beforeEach(async () => {
  await t.reset();
  stores = [createEventStore(t.db, projections), createEventStore(t.db, projections)];
});
afterAll(async () => t.dispose());

async function addAddresses(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) {
    await stores[0].append(
      [
        {
          streamId: `address:${id}`,
          streamType: 'address',
          expectedVersion: 0,
          events: [{ type: 'AddressAdded', data: { address_id: id, address: address(id, 0), network: 'mainnet' } }],
        },
      ],
      meta,
    );
  }
  return ids;
}

describe('group commit', () => {
  it('64 concurrent commands over 8 streams: accepted ones once each, refused ones absent, one gapless chain', async () => {
    const ids = await addAddresses(8);
    // Per stream, eight commands: the first store sends the even ones, the second the odd ones, and each pair
    // expects the same version (1, 2, 3, 4). Exactly one of each pair can win, whatever order they commit in.
    const commands = ids.flatMap((id) =>
      Array.from({ length: 8 }, (_, j) => ({
        id,
        j,
        store: stores[j % 2]!,
        append: change(id, 1 + Math.floor(j / 2), j + 1),
      })),
    );
    const outcomes = await Promise.allSettled(commands.map((c) => c.store.append([c.append], meta)));

    const accepted = commands.flatMap((c, i) =>
      outcomes[i]!.status === 'fulfilled'
        ? [{ ...c, stored: (outcomes[i] as PromiseFulfilledResult<StoredEvent[]>).value }]
        : [],
    );
    const refused = commands.filter((_, i) => outcomes[i]!.status === 'rejected');
    expect(accepted).toHaveLength(32);
    expect(refused).toHaveLength(32);
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'rejected') expect((outcome.reason as DomainError).code, `command ${i}`).toBe('conflict');
    }

    const log = await readLog(t.db);
    expect(log.map((e) => e.position)).toEqual(Array.from({ length: 8 + 32 }, (_, i) => i + 1));
    const changes = log.filter((e) => e.type === 'AddressChanged');
    for (const c of accepted) {
      const mine = changes.filter(
        (e) => e.stream_id === `address:${c.id}` && (e.data as { address: string }).address === address(c.id, c.j + 1),
      );
      expect(mine.map((e) => e.event_id)).toEqual(c.stored.map((e) => e.event_id));
      expect(mine[0]!.stream_version).toBe(c.append.expectedVersion + 1);
    }
    for (const c of refused) {
      expect(changes.some((e) => (e.data as { address: string }).address === address(c.id, c.j + 1))).toBe(false);
    }
    for (const id of ids) {
      const versions = log.filter((e) => e.stream_id === `address:${id}`).map((e) => e.stream_version);
      expect(versions).toEqual([1, 2, 3, 4, 5]);
    }

    // Commands that queued together committed together: fewer transactions than accepted commands.
    const transactions = await t.db
      .selectFrom('events')
      .select('transaction_id')
      .where('type', '=', 'AddressChanged')
      .distinct()
      .execute();
    expect(transactions.length).toBeLessThan(32);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 40 });
    expect(await readChainHead(t.db)).toEqual({ position: 40, hash: log.at(-1)!.hash });
    const replay = await replayProjections(t);
    expect(replay.match).toBe(true);
    // The read model holds each address's last accepted change.
    const rows = await t.db.selectFrom('addresses').select(['id', 'address_string']).execute();
    for (const id of ids) {
      const last = changes.filter((e) => e.stream_id === `address:${id}`).at(-1)!;
      expect(rows.find((r) => r.id === id)?.address_string).toBe((last.data as { address: string }).address);
    }
  });

  it('a command that fails inside a batch fails alone: the others of its batch are written', async () => {
    const ids = await addAddresses(4);
    const [store] = stores;
    // Queued together behind a first append: a stale version, a failing write beside the events, and an address
    // that another stream holds (the read model's unique index) among three fine commands.
    const first = store.append([change(ids[0]!, 1, 1)], meta);
    const batch = [
      store.append([change(ids[1]!, 1, 1)], meta),
      store.append([change(ids[0]!, 1, 2)], meta),
      store.append([change(ids[2]!, 1, 1)], meta, {
        alsoWrite: async () => {
          throw new Error('outbox write failed');
        },
      }),
      store.append(
        [{ ...change(ids[3]!, 1, 1), events: [{ type: 'AddressChanged', data: { address: address(ids[2]!, 0) } }] }],
        meta,
      ),
      store.append([change(ids[3]!, 1, 2)], meta),
    ];
    const [firstDone, ...outcomes] = await Promise.allSettled([first, ...batch]);
    expect(firstDone.status).toBe('fulfilled');
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
    expect(((outcomes[1] as PromiseRejectedResult).reason as DomainError).code).toBe('conflict');
    expect(((outcomes[2] as PromiseRejectedResult).reason as Error).message).toBe('outbox write failed');
    expect(((outcomes[3] as PromiseRejectedResult).reason as DomainError).code).toBe('conflict');

    const log = await readLog(t.db);
    expect(log.slice(4).map((e) => [e.stream_id, e.data])).toEqual([
      [`address:${ids[0]}`, { address: address(ids[0]!, 1) }],
      [`address:${ids[1]}`, { address: address(ids[1]!, 1) }],
      [`address:${ids[3]}`, { address: address(ids[3]!, 2) }],
    ]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 7 });
    expect((await replayProjections(t)).match).toBe(true);
  });

  it('writes a batch with nothing else to write in one statement, no transaction, at the head it left', async () => {
    let queries = 0;
    const counting = t.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries += 1;
        return args.result;
      },
    });
    const store = createEventStore(counting, projections);
    const ids = Array.from({ length: 6 }, () => randomUUID());
    for (const id of ids) {
      const added = {
        type: 'AddressAdded' as const,
        data: { address_id: id, address: address(id, 0), network: 'mainnet' },
      };
      await store.append(
        [{ streamId: `address:${id}`, streamType: 'address', expectedVersion: 0, events: [added] }],
        meta,
      );
    }
    // The store now knows the head and the rows; six appends queue together.
    queries = 0;
    await Promise.all(ids.map((id) => store.append([change(id, 1, 1)], meta)));
    // One statement for the six: no lock taken first, no stream versions read (three queries under the lock before).
    expect(queries).toBe(1);
    const log = await t.db
      .selectFrom('events')
      .select(['stream_id', 'transaction_id'])
      .where('type', '=', 'AddressChanged')
      .orderBy('position')
      .execute();
    expect(log.map((e) => e.stream_id)).toEqual(ids.map((id) => `address:${id}`));
    expect(new Set(log.map((e) => e.transaction_id)).size).toBe(1);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 12 });
    expect((await replayProjections(t)).match).toBe(true);
  });

  it('writes batches of every size in one statement text, so the database plans it once', async () => {
    const texts = new Set<string>();
    // The store's statements through a database that notes each text it is asked to run.
    const noting = new Proxy(t.db, {
      get(target, property) {
        if (property === 'executeQuery')
          return (query: CompiledQuery) => {
            texts.add(query.sql);
            return target.executeQuery(query);
          };
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const store = createEventStore(noting, projections);
    const ids = await addAddresses(6);
    // Each append also queues a mail (as a creation does), which its batch's statement inserts.
    const withMail = (id: string): AppendOptions => ({
      alsoInsert: async () => [
        { table: 'mail_outbox', rows: [{ to_address: `${id}@example.com`, subject: 'Changed', body: id }] },
      ],
    });
    let version = 1;
    for (const size of [1, 2, 3, 6]) {
      // The first append goes alone; the rest queue behind it and go as one batch of size - 1.
      await Promise.all(
        ids.slice(0, size).map((id) => store.append([change(id, version, version + 1)], meta, withMail(id))),
      );
      for (const id of ids.slice(size)) await store.append([change(id, version, version + 1)], meta, withMail(id));
      version += 1;
    }
    const appends = [...texts].filter((text) => text.includes('UPDATE chain_head'));
    expect(appends).toHaveLength(1);
    expect(
      Number(
        (
          await t.db
            .selectFrom('mail_outbox')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(24);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 30 });
    expect((await replayProjections(t)).match).toBe(true);
  });

  it('a batch whose stream moved in another process is done again under the lock: the stale append alone refused', async () => {
    const ids = await addAddresses(3);
    const [mine, other] = stores;
    // This process read each stream at version 1; the other process moves the second stream on first.
    await other.append([change(ids[1]!, 1, 1)], meta);
    const first = mine.append([change(ids[0]!, 1, 2)], meta);
    const batch = [mine.append([change(ids[1]!, 1, 2)], meta), mine.append([change(ids[2]!, 1, 2)], meta)];
    const outcomes = await Promise.allSettled([first, ...batch]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((outcomes[1] as PromiseRejectedResult).reason as DomainError).code).toBe('conflict');
    const log = await readLog(t.db);
    expect(log.slice(3).map((e) => [e.stream_id, e.data])).toEqual([
      [`address:${ids[1]}`, { address: address(ids[1]!, 1) }],
      [`address:${ids[0]}`, { address: address(ids[0]!, 2) }],
      [`address:${ids[2]}`, { address: address(ids[2]!, 2) }],
    ]);
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 6 });
    expect((await replayProjections(t)).match).toBe(true);
  });

  it('takes the oldest command first: one decided again after losing a race beats a newer one on its stream', async () => {
    const ids = await addAddresses(2);
    const [store] = stores;
    // While a first append runs, a new command and then an older one (its first try came earlier, it lost that race
    // and was decided again) queue for the same version of one stream. The older one must win, or a stream of new
    // commands could refuse it on every try (a user signing in again and again against an admin's suspension).
    const first = store.append([change(ids[0]!, 1, 1)], meta);
    const newer = store.append([change(ids[1]!, 1, 1)], meta);
    const older = store.append([change(ids[1]!, 1, 2)], meta, { since: performance.now() - 1_000 });
    const [firstDone, newerDone, olderDone] = await Promise.allSettled([first, newer, older]);
    expect(firstDone.status).toBe('fulfilled');
    expect(olderDone.status).toBe('fulfilled');
    expect(newerDone.status).toBe('rejected');
    expect(((newerDone as PromiseRejectedResult).reason as DomainError).code).toBe('conflict');
    const log = await readLog(t.db);
    expect(log.filter((e) => e.stream_id === `address:${ids[1]}`).map((e) => e.data)).toEqual([
      expect.objectContaining({ address_id: ids[1] }),
      { address: address(ids[1]!, 2) },
    ]);
  });
});
