import { type Kysely, sql } from 'kysely';
import { DomainError } from '../../domain/shared/errors.ts';
import type { Database } from '../db/schema.ts';

export interface Limit {
  /** What is limited, e.g. 'login-account'. */
  bucket: string;
  max: number;
  windowSeconds: number;
}

const windowStart = (now: Date, windowSeconds: number) =>
  new Date(Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000);

const retryAfter = (now: Date, limit: Limit) =>
  Math.max(
    1,
    Math.ceil(
      (windowStart(now, limit.windowSeconds).getTime() + limit.windowSeconds * 1000 - now.getTime()) / 1000,
    ),
  );

function tooMany(now: Date, limit: Limit, detail: string): DomainError {
  const seconds = retryAfter(now, limit);
  return new DomainError('rate_limited', `${detail}; try again in ${seconds} seconds`, {
    'Retry-After': String(seconds),
  });
}

/** Counts in the database, so every server process sees the same numbers. */
export async function countOf(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  now = new Date(),
): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('bucket', '=', limit.bucket)
    .where('key', '=', key)
    .where('window_start', '=', windowStart(now, limit.windowSeconds))
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** Refuses with 429 (and Retry-After) when `key` already reached the limit in this window. */
export async function assertUnderLimit(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  detail: string,
  now = new Date(),
) {
  if ((await countOf(db, limit, key, now)) >= limit.max) throw tooMany(now, limit, detail);
}

/** Adds one to `key`'s count in this window and returns the new count. */
export async function recordHit(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  now = new Date(),
): Promise<number> {
  const start = windowStart(now, limit.windowSeconds).toISOString();
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ bucket: limit.bucket, key, window_start: start, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['bucket', 'key', 'window_start'])
        .doUpdateSet({ count: sql`rate_limit_counters.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Records a hit and refuses it when it goes over the limit (registrations, reviews, contact messages). */
export async function consume(
  db: Kysely<Database>,
  limit: Limit,
  key: string,
  detail: string,
  now = new Date(),
) {
  if ((await recordHit(db, limit, key, now)) > limit.max) throw tooMany(now, limit, detail);
}

/** Drops windows that ended long ago. */
export async function pruneCounters(db: Kysely<Database>, olderThan: Date): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('window_start', '<', olderThan).execute();
}
