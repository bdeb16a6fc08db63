import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/shared/errors.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { consume, countsOf, type Limit, pruneCounters, recordHit, reserve, windowsAt } from './rate-limit.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => t.dispose());

// A window boundary: a multiple of 60 s since the epoch.
const T0 = new Date('2026-01-01T00:00:00.000Z').getTime();
const at = (seconds: number) => new Date(T0 + seconds * 1000);

async function refusal(attempt: Promise<unknown>): Promise<DomainError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('windowsAt', () => {
  it('names the fixed window holding now, the one before it and how far into it now is', () => {
    const limit: Limit = { bucket: 'w', max: 1, windowSeconds: 60 };
    expect(windowsAt(limit, at(15))).toEqual({ start: at(0), previousStart: at(-60), elapsed: 0.25 });
    expect(windowsAt(limit, at(-1))).toEqual({ start: at(-60), previousStart: at(-120), elapsed: 59 / 60 });
  });
});

describe('counts in the database', () => {
  it('counts the hits of this window and of the one before, not older ones nor other keys', async () => {
    const limit: Limit = { bucket: 'counts', max: 10, windowSeconds: 60 };
    await recordHit(t.db, limit, 'k', at(-61)); // two windows back
    await recordHit(t.db, limit, 'k', at(-60));
    await recordHit(t.db, limit, 'k', at(-10));
    await recordHit(t.db, limit, 'k', at(-1));
    await recordHit(t.db, limit, 'k', at(15));
    await recordHit(t.db, limit, 'other-key', at(15));
    await recordHit(t.db, { ...limit, bucket: 'other-bucket' }, 'k', at(15));
    expect(await countsOf(t.db, limit, 'k', at(15))).toEqual({ previous: 3, current: 1, elapsed: 0.25 });
    expect(await countsOf(t.db, limit, 'k', at(-30))).toEqual({ previous: 1, current: 3, elapsed: 0.5 });
    expect(await countsOf(t.db, limit, 'nobody', at(15))).toEqual({ previous: 0, current: 0, elapsed: 0.25 });
  });

  it('refuses the hit that goes over the limit, saying when to try again', async () => {
    const limit: Limit = { bucket: 'consume', max: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) await consume(t.db, limit, 'k', 'Too many messages', at(15));
    const error = await refusal(consume(t.db, limit, 'k', 'Too many messages', at(15)));
    expect(error.code).toBe('rate_limited');
    const seconds = Number(error.headers['Retry-After']);
    expect(error.detail).toBe(`Too many messages; try again in ${seconds} seconds`);
    expect(await countsOf(t.db, limit, 'k', at(15))).toMatchObject({ previous: 0, current: 4 });
    // The refused hit stays counted; a retry then adds one: it fits once 4 * (1 - elapsed) + 1 <= 3, 31 s into the
    // next window. It said 61 s before, and a retry then was refused again.
    expect(seconds).toBe(76);
    await expect(consume(t.db, limit, 'k', 'Too many messages', at(15 + seconds))).resolves.toBeUndefined();
  });

  it('lets a hit through once the previous window has faded enough', async () => {
    const limit: Limit = { bucket: 'consume-fade', max: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) await recordHit(t.db, limit, 'k', at(-30));
    // 3 * (1 - 0.25) + 1 = 3.25: over.
    await expect(consume(t.db, limit, 'k', 'Too many', at(15))).rejects.toThrow(DomainError);
    // 3 * (1 - 0.75) + 2 = 2.75: under.
    await expect(consume(t.db, limit, 'k', 'Too many', at(45))).resolves.toBeUndefined();
  });
});

describe('reserve', () => {
  it('takes a slot counted with the previous window weighted by what is left of it', async () => {
    const limit: Limit = { bucket: 'reserve', max: 4, windowSeconds: 60 };
    await recordHit(t.db, limit, 'k', at(-30));
    await recordHit(t.db, limit, 'k', at(-30));
    const first = await reserve(t.db, limit, 'k', 'Too many', { now: at(15) });
    expect(first.counts).toEqual({ previous: 2, current: 1, elapsed: 0.25 });
    const second = await reserve(t.db, limit, 'k', 'Too many', { now: at(30) });
    expect(second.counts).toEqual({ previous: 2, current: 2, elapsed: 0.5 });
  });

  it('gives a slot back once however many times it is released', async () => {
    const limit: Limit = { bucket: 'release', max: 10, windowSeconds: 60 };
    const first = await reserve(t.db, limit, 'k', 'Too many', { now: at(15) });
    await reserve(t.db, limit, 'k', 'Too many', { now: at(15) });
    await first.release();
    await first.release();
    expect(await countsOf(t.db, limit, 'k', at(15))).toMatchObject({ current: 1 });
  });

  it('refuses over the limit, gives the slot back and says when to try again', async () => {
    // Six failures in the last window, none yet in this one: four more fit (6 + 4 = 10), the fifth does not.
    const limit: Limit = { bucket: 'login-account', max: 10, windowSeconds: 900 };
    for (let i = 0; i < 6; i++) await recordHit(t.db, limit, 'k', at(-1));
    for (let i = 0; i < 4; i++) await reserve(t.db, limit, 'k', 'Too many sign-ins', { now: at(0) });
    const error = await refusal(reserve(t.db, limit, 'k', 'Too many sign-ins', { now: at(0), reason: 'totp_locked' }));
    expect(error.code).toBe('rate_limited');
    const seconds = Number(error.headers['Retry-After']);
    expect(error.detail).toBe(`Too many sign-ins; try again in ${seconds} seconds`);
    expect(error.reason).toBe('totp_locked');
    expect(await countsOf(t.db, limit, 'k', at(0))).toMatchObject({ previous: 6, current: 4 });
    // 4 + 6 * (1 - 151/900) = 9 before the attempt: it fits from then on, and not two seconds before. It said 1 s
    // before, and a retry then was refused again.
    expect(seconds).toBe(151);
    await expect(reserve(t.db, limit, 'k', 'Too many sign-ins', { now: at(seconds - 2) })).rejects.toThrow(DomainError);
    await expect(reserve(t.db, limit, 'k', 'Too many sign-ins', { now: at(seconds) })).resolves.toBeDefined();
  });
});

describe('pruneCounters', () => {
  it('drops the windows that started before the cut and keeps the rest', async () => {
    const limit: Limit = { bucket: 'prune', max: 10, windowSeconds: 60 };
    await recordHit(t.db, limit, 'k', at(-120));
    await recordHit(t.db, limit, 'k', at(-60));
    await recordHit(t.db, limit, 'k', at(0));
    await pruneCounters(t.db, at(-60));
    const left = await t.db
      .selectFrom('rate_limit_counters')
      .select('window_start')
      .where('bucket', '=', 'prune')
      .orderBy('window_start')
      .execute();
    expect(left.map((r) => new Date(r.window_start).getTime())).toEqual([at(-60).getTime(), at(0).getTime()]);
  });
});
