import type { Kysely } from 'kysely';
import { pruneCounters } from '../auth/rate-limit.ts';
import type { Database } from '../db/schema.ts';

const DAY = 86_400_000;

/**
 * Keeps the bookkeeping tables bounded: failed sign-ins older than 30 days, rate-limit windows older than a day,
 * idempotency keys older than a day, expired or revoked sessions older than a week. Deleting is idempotent, so
 * several servers may run it at once.
 */
export async function housekeeping(db: Kysely<Database>, now = new Date()): Promise<void> {
  await db
    .deleteFrom('security_log')
    .where('at', '<', new Date(now.getTime() - 30 * DAY))
    .execute();
  await pruneCounters(db, new Date(now.getTime() - DAY));
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - DAY))
    .execute();
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', new Date(now.getTime() - 7 * DAY)),
        eb('revoked_at', '<', new Date(now.getTime() - 7 * DAY)),
      ]),
    )
    .execute();
  await db
    .deleteFrom('email_tokens')
    .where('expires_at', '<', new Date(now.getTime() - 7 * DAY))
    .execute();
}
