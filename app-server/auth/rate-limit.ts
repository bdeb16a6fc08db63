import { type Kysely, sql } from 'kysely';
import { DomainError, type ErrorReason } from '../../domain/shared/errors.ts';
import type { Database } from '../db/schema.ts';

export interface Limit {
  /** What is limited, e.g. 'login-account'. */
  bucket: string;
  max: number;
  windowSeconds: number;
}

/** The hits of one key in the fixed window holding `now` and in the one before it. */
export interface WindowCounts {
  previous: number;
  current: number;
  /** How far `now` is into the current window, from 0 to 1. */
  elapsed: number;
}

const windowStart = (now: Date, windowSeconds: number) =>
  new Date(Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000);

/**
 * Hits in the last `windowSeconds`, estimated from two fixed windows: the current one in full plus the previous one
 * weighted by how much of it still lies inside the sliding window. A burst split across a window boundary is counted
 * together (a plain fixed window would let twice the limit through at the turn).
 */
export const slidingCount = ({ previous, current, elapsed }: WindowCounts) => current + previous * (1 - elapsed);

/**
 * Seconds until one more hit fits (the sliding count at most `max - 1`) if no further hit comes: what Retry-After
 * promises. Waiting only until the count is under `max` was not enough, as the retry adds one: a sign-in refused with
 * "try again in 1 seconds" was refused again a second later.
 */
export function secondsUntilRoom(counts: WindowCounts, limit: Limit): number {
  const { previous, current, elapsed } = counts;
  const room = limit.max - 1;
  const wait =
    current > room
      ? 1 - elapsed + 1 - room / current // this window becomes the previous one and decays in the next
      : previous === 0
        ? 0
        : 1 - (room - current) / previous - elapsed; // the previous window's weight decays enough within this one
  return Math.max(1, Math.floor(wait * limit.windowSeconds + 1e-9) + 1); // past the exact moment, despite rounding
}

export function tooMany(counts: WindowCounts, limit: Limit, detail: string, reason?: ErrorReason): DomainError {
  const seconds = secondsUntilRoom(counts, limit);
  return new DomainError(
    'rate_limited',
    `${detail}; try again in ${seconds} seconds`,
    { 'Retry-After': String(seconds) },
    reason,
  );
}

/** Reads the counts from the database, so every server process sees the same numbers. */
export async function countsOf(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  now = new Date(),
): Promise<WindowCounts> {
  const windowMs = limit.windowSeconds * 1000;
  const current = windowStart(now, limit.windowSeconds);
  const previous = new Date(current.getTime() - windowMs);
  const rows = await db
    .selectFrom('rate_limit_counters')
    .select(['window_start', 'count'])
    .where('bucket', '=', limit.bucket)
    .where('key', '=', key)
    .where('window_start', 'in', [previous, current])
    .execute();
  const countAt = (start: Date) =>
    rows.find((row) => new Date(row.window_start).getTime() === start.getTime())?.count ?? 0;
  return {
    previous: countAt(previous),
    current: countAt(current),
    elapsed: (now.getTime() - current.getTime()) / windowMs,
  };
}

/** Adds one to `key`'s count in the current window. */
export async function recordHit(db: Kysely<Database>, limit: Limit, key: string, now = new Date()): Promise<void> {
  await db
    .insertInto('rate_limit_counters')
    .values({ bucket: limit.bucket, key, window_start: windowStart(now, limit.windowSeconds).toISOString(), count: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'key', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + 1` }),
    )
    .execute();
}

/** Records a hit and refuses it when it goes over the limit (registrations, reviews, contact messages). */
export async function consume(db: Kysely<Database>, limit: Limit, key: string, detail: string, now = new Date()) {
  await recordHit(db, limit, key, now);
  const counts = await countsOf(db, limit, key, now);
  if (slidingCount(counts) > limit.max) throw tooMany(counts, limit, detail);
}

/** One attempt's place in a limit, taken before the attempt is made. */
export interface Reservation {
  /** The counts with this attempt in them; `current` is this attempt's rank in the current window. */
  counts: WindowCounts;
  /** Gives the slot back: the attempt turned out not to count (the right password, the right code). */
  release: () => Promise<void>;
}

/**
 * Takes one slot of `key`'s limit before the attempt is made, in one statement (the increment returns this attempt's
 * rank), so N concurrent attempts pass at most the limit whatever their timing. Over the limit: the slot is given
 * back and the attempt refused with 429 and Retry-After.
 */
export async function reserve(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  detail: string,
  options: { now?: Date; reason?: ErrorReason } = {},
): Promise<Reservation> {
  const now = options.now ?? new Date();
  const start = windowStart(now, limit.windowSeconds);
  const { count } = await db
    .insertInto('rate_limit_counters')
    .values({ bucket: limit.bucket, key, window_start: start.toISOString(), count: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'key', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  const previousStart = new Date(start.getTime() - limit.windowSeconds * 1000);
  const previous = await db
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('bucket', '=', limit.bucket)
    .where('key', '=', key)
    .where('window_start', '=', previousStart)
    .executeTakeFirst();
  const counts = {
    previous: previous?.count ?? 0,
    current: Number(count),
    elapsed: (now.getTime() - start.getTime()) / (limit.windowSeconds * 1000),
  };
  return reservationOf(db, limit, key, { start, counts }, detail, options.reason);
}

/** The window a slot of `limit` taken at `now` counts in, and the one before it. */
export function windowsAt(limit: Limit, now: Date): { start: Date; previousStart: Date; elapsed: number } {
  const start = windowStart(now, limit.windowSeconds);
  const windowMs = limit.windowSeconds * 1000;
  return {
    start,
    previousStart: new Date(start.getTime() - windowMs),
    elapsed: (now.getTime() - start.getTime()) / windowMs,
  };
}

/**
 * A slot already counted in the window starting at `start` (`counts` include it): kept, or, over the limit, given
 * back and refused with 429 and Retry-After. For a caller that took the slot in a statement of its own.
 */
export async function reservationOf(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  { start, counts }: { start: Date; counts: WindowCounts },
  detail: string,
  reason?: ErrorReason,
): Promise<Reservation> {
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await db
      .updateTable('rate_limit_counters')
      .set({ count: sql`rate_limit_counters.count - 1` })
      .where('bucket', '=', limit.bucket)
      .where('key', '=', key)
      .where('window_start', '=', start)
      .where('count', '>', 0)
      .execute();
  };
  if (slidingCount(counts) > limit.max) {
    await release();
    throw tooMany({ ...counts, current: counts.current - 1 }, limit, detail, reason);
  }
  return { counts, release };
}

/** Whether this attempt (kept, not released) is the one that brought the count up to the limit. */
export const reachedLimitWith = (counts: WindowCounts, limit: Limit) =>
  slidingCount(counts) >= limit.max && slidingCount({ ...counts, current: counts.current - 1 }) < limit.max;

/** Drops windows that ended long ago. */
export async function pruneCounters(db: Kysely<Database>, olderThan: Date): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('window_start', '<', olderThan).execute();
}
