import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DomainEvent } from '../../domain/events.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { createEventStore } from './append.ts';
import { readChainHead } from './chain-head.ts';
import type { EventStore } from './event-store.ts';
import { readLog } from './read.ts';
import { verifyChain } from './verify-chain.ts';

/**
 * verifyChain's options, as the operator's tools and the server's own background check use them: a walk from a
 * point already verified, the story check, the progress it reports page by page, and the rest it takes between pages.
 */
const meta = { actor: 'system', request_id: 'test' };
const rate = (rate_cents: number): DomainEvent => ({ type: 'BtcRateSet', data: { rate_cents } });

let t: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  t = await openTestDatabase();
  store = createEventStore(t.db, []);
});
beforeEach(async () => t.reset());
afterAll(async () => t.dispose());

/** Five events on the pricing stream: positions 1 to 5. */
const fiveEvents = () =>
  store.append(
    [
      {
        streamId: 'settings:pricing',
        streamType: 'settings',
        expectedVersion: 0,
        events: [rate(100), rate(200), rate(300), rate(400), rate(500)],
      },
    ],
    meta,
  );

const eventAt = async (position: number) => (await readLog(t.db, { after: position - 1, limit: 1 }))[0]!;

describe('verifyChain from a point already verified (after)', () => {
  it('checks only the events after it, linked to its hash', async () => {
    await fiveEvents();
    const second = await eventAt(2);
    const head = await readChainHead(t.db);
    expect(await verifyChain(t.db, { after: { position: 2, hash: second.hash } })).toEqual({
      ok: true,
      events: 3,
      head,
      firstBreak: null,
    });
  });

  it('refuses a chain head behind the point already verified: events were removed from the end', async () => {
    await fiveEvents();
    const fifth = await eventAt(5);
    const verified = { position: 7, hash: fifth.hash };
    expect(await verifyChain(t.db, { after: verified })).toEqual({
      ok: false,
      events: 0,
      head: verified,
      firstBreak: {
        position: 6,
        reason:
          'the chain head records position 5, but the log was verified up to 7 (events were removed from the end)',
      },
    });
  });

  it('names a point whose hash is not the one the log links to', async () => {
    await fiveEvents();
    const report = await verifyChain(t.db, { after: { position: 2, hash: 'ab'.repeat(32) } });
    expect(report).toMatchObject({ ok: false, events: 0, firstBreak: { position: 3 } });
  });
});

describe('verifyChain with the story check', () => {
  /** A log whose every hash is right, but whose story is impossible: an escrow frozen by someone never made admin. */
  async function impossibleStory() {
    await fiveEvents();
    const escrow = randomUUID();
    await store.append(
      [
        {
          streamId: `escrow:${escrow}`,
          streamType: 'escrow',
          expectedVersion: 0,
          events: [{ type: 'EscrowFrozen', data: { reason: 'mine now' } } as DomainEvent],
        },
      ],
      { actor: 'mallory', request_id: 'forged' },
    );
    await fiveEventsMore();
    return escrow;
  }
  const fiveEventsMore = () =>
    store.append(
      [{ streamId: 'settings:pricing', streamType: 'settings', expectedVersion: 5, events: [rate(600), rate(700)] }],
      meta,
    );

  it('without it, a log with right hashes verifies', async () => {
    await impossibleStory();
    expect(await verifyChain(t.db)).toMatchObject({ ok: true, events: 8, firstBreak: null });
    expect(await verifyChain(t.db, { story: false })).toMatchObject({ ok: true, events: 8, firstBreak: null });
  });

  it('with it, the walk stops at the impossible event and names it', async () => {
    const escrow = await impossibleStory();
    expect(await verifyChain(t.db, { story: true })).toEqual({
      ok: false,
      events: 6,
      head: { position: 6, hash: (await eventAt(6)).hash },
      firstBreak: {
        position: 6,
        reason: `event 6 (EscrowFrozen on escrow ${escrow}) is an admin's act by mallory, who was never made an admin`,
      },
    });
  });

  it('is not applied to a walk from a point already verified (it would not see every escrow from its creation)', async () => {
    await impossibleStory();
    const first = await eventAt(1);
    expect(await verifyChain(t.db, { story: true, after: { position: 1, hash: first.hash } })).toMatchObject({
      ok: true,
      events: 7,
      firstBreak: null,
    });
  });
});

describe('verifyChain progress and pages', () => {
  it('reports events checked so far and the total to check, after each page of the size asked for', async () => {
    await fiveEvents();
    const progress: [number, number][] = [];
    const report = await verifyChain(t.db, { pageSize: 2, onProgress: (done, total) => progress.push([done, total]) });
    expect(report).toMatchObject({ ok: true, events: 5 });
    expect(progress).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it('counts the total from the point already verified', async () => {
    await fiveEvents();
    const progress: [number, number][] = [];
    const second = await eventAt(2);
    await verifyChain(t.db, {
      after: { position: 2, hash: second.hash },
      pageSize: 2,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress).toEqual([
      [2, 3],
      [3, 3],
    ]);
  });

  it('reads 5,000 events a page unless told otherwise', async () => {
    await fiveEvents();
    const progress: [number, number][] = [];
    await verifyChain(t.db, { onProgress: (done, total) => progress.push([done, total]) });
    expect(progress).toEqual([[5, 5]]);
  });

  it('detects a chain head that records another hash for the last event', async () => {
    await fiveEvents();
    await sql`UPDATE chain_head SET hash = ${'cd'.repeat(32)} WHERE id = 1`.execute(t.db);
    expect(await verifyChain(t.db, { pageSize: 2 })).toMatchObject({
      ok: false,
      events: 5,
      firstBreak: { position: 5, reason: 'the chain head records another hash for the last event' },
    });
  });

  it('detects a chain head that counts events the log does not hold, though its hash is the last one', async () => {
    await fiveEvents();
    await sql`UPDATE chain_head SET position = 7 WHERE id = 1`.execute(t.db);
    expect(await verifyChain(t.db, { pageSize: 2 })).toMatchObject({
      ok: false,
      events: 5,
      firstBreak: {
        position: 6,
        reason: 'the chain head records position 7, but the log ends at 5 (events were removed from the end)',
      },
    });
  });
});

const realSetTimeout = globalThis.setTimeout;

describe('verifyChain rest between pages (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Waits (on the real clock, up to 5 s) for the database to answer, without moving the fake one. */
  const until = async (done: () => boolean) => {
    for (const started = Date.now(); !done() && Date.now() - started < 5_000;)
      await new Promise((resolve) => realSetTimeout(resolve, 2));
  };
  /** A while for a walk that should be resting to show it is not. */
  const aWhile = () => new Promise((resolve) => realSetTimeout(resolve, 50));

  it('rests restRatio times as long as the page took before reading the next one', async () => {
    await fiveEvents();
    const progress: number[] = [];
    let finished = false;
    const walk = verifyChain(t.db, {
      pageSize: 2,
      restRatio: 3,
      onProgress: (done) => {
        progress.push(done);
        vi.advanceTimersByTime(10); // the page took 10 ms: the rest after it is 30 ms
      },
    }).then((report) => {
      finished = true;
      return report;
    });
    await until(() => progress.length >= 1);
    expect(progress).toEqual([2]);
    await vi.advanceTimersByTimeAsync(29);
    await aWhile();
    expect(progress, 'still resting after 29 of 30 ms').toEqual([2]);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => progress.length >= 2);
    expect(progress).toEqual([2, 4]);
    await vi.advanceTimersByTimeAsync(30);
    await until(() => progress.length >= 3);
    expect(progress).toEqual([2, 4, 5]);
    await vi.advanceTimersByTimeAsync(30);
    await until(() => finished);
    expect(await walk).toMatchObject({ ok: true, events: 5 });
  });

  it('without restRatio, walks every page without waiting for a timer', async () => {
    await fiveEvents();
    let finished = false;
    const walk = verifyChain(t.db, { pageSize: 1 }).then((report) => {
      finished = true;
      return report;
    });
    await until(() => finished);
    expect(finished, 'the walk did not wait on a timer').toBe(true);
    expect(await walk).toMatchObject({ ok: true, events: 5 });
  });
});
