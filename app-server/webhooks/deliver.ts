import { type Kysely, sql } from 'kysely';
import type { SecretBox } from '../auth/secret-box.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { retryDelayMinutes } from '../mail/sender.ts';
import { type AttemptOutcome, sendWebhook, type WebhookMessage } from './send.ts';

/** Attempts before a delivery is given up (about 8.5 hours with the backoff); Redeliver starts it again. */
export const MAX_WEBHOOK_ATTEMPTS = 10;
/** A claimed delivery is not claimed again for this long: longer than an attempt can take. */
export const CLAIM_LEASE_SECONDS = 120;

export interface ClaimedDelivery extends WebhookMessage {
  id: number;
  attempts: number;
}

export interface DeliveryDeps {
  db: Kysely<Database>;
  secrets: SecretBox;
  logger: Logger;
  allowPrivate: boolean;
}

const nowSql = (now?: () => Date) => (now ? sql<Date>`${now().toISOString()}::timestamptz` : sql<Date>`now()`);

/**
 * Takes the next due delivery (FOR UPDATE SKIP LOCKED, so two server processes never take the same one) and leases
 * it: its next attempt is pushed past the lease and the claim committed at once, so the HTTP call runs outside any
 * transaction. A process that dies after the call and before recording it leaves the lease to run out; the message
 * is then sent again with the same `webhook-id` (at least once).
 */
export async function claimDueDelivery(
  deps: Pick<DeliveryDeps, 'db' | 'secrets'>,
  now?: () => Date,
): Promise<ClaimedDelivery | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id', 'message_id', 'payload', 'attempts'])
      .where('delivered_at', 'is', null)
      .where('attempts', '<', MAX_WEBHOOK_ATTEMPTS)
      .where('next_attempt_at', '<=', nowSql(now))
      .where('endpoint_id', 'in', (eb) =>
        eb
          .selectFrom('webhook_endpoints')
          .select('webhook_endpoints.id')
          .where('webhook_endpoints.disabled_at', 'is', null),
      )
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!due) return undefined;
    const endpoint = await trx
      .selectFrom('webhook_endpoints')
      .select(['url', 'secret_sealed'])
      .where('id', '=', due.endpoint_id)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: sql<string>`${nowSql(now)} + make_interval(secs => ${CLAIM_LEASE_SECONDS})` })
      .where('id', '=', due.id)
      .execute();
    return {
      id: due.id,
      attempts: due.attempts,
      messageId: due.message_id,
      payload: due.payload,
      url: endpoint.url,
      secret: deps.secrets.open(endpoint.secret_sealed),
    };
  });
}

/** Writes an attempt to the delivery log and schedules the next one (backoff: 1, 2, 4 … minutes, at most an hour). */
export async function recordAttempt(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  outcome: AttemptOutcome,
  at: Date,
): Promise<'delivered' | 'failed'> {
  const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const attempts = claimed.attempts + 1;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: claimed.id,
        attempted_at: at.toISOString(),
        status_code: outcome.statusCode,
        error: outcome.error,
        duration_ms: outcome.durationMs,
      })
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts,
        last_status: outcome.statusCode,
        last_error: outcome.error,
        delivered_at: delivered ? at.toISOString() : null,
        next_attempt_at: delivered
          ? at.toISOString()
          : sql<string>`${at.toISOString()}::timestamptz + make_interval(mins => ${retryDelayMinutes(attempts)})`,
      })
      .where('id', '=', claimed.id)
      .execute();
  });
  return delivered ? 'delivered' : 'failed';
}

/**
 * Delivers due webhooks, one after the other, as the mail loop delivers mail: each claimed, sent signed, and its
 * attempt recorded; a failure (no answer, a non-2xx status, a refused destination) is retried with backoff.
 */
export async function deliverDueWebhooks(
  deps: DeliveryDeps,
  options: { batch?: number; now?: () => Date } = {},
): Promise<{ delivered: number; failed: number }> {
  const clock = options.now ?? (() => new Date());
  let delivered = 0;
  let failed = 0;
  for (let i = 0; i < (options.batch ?? 20); i++) {
    const claimed = await claimDueDelivery(deps, options.now);
    if (!claimed) break;
    const at = clock();
    const outcome = await sendWebhook(claimed, at, { allowPrivate: deps.allowPrivate });
    const result = await recordAttempt(deps.db, claimed, outcome, at);
    if (result === 'delivered') delivered++;
    else {
      failed++;
      deps.logger.warn(
        { delivery_id: claimed.id, attempts: claimed.attempts + 1, status: outcome.statusCode, err: outcome.error },
        'webhook delivery failed; will retry',
      );
    }
  }
  return { delivered, failed };
}
