import { DomainError } from '../../domain/shared/errors.ts';
import { endUnpaid } from '../escrows/commands.ts';
import type { AppDeps } from '../app-deps.ts';
import { withJobLock } from './job-lock.ts';

/** Advisory lock key of the expiry job (any constant unique among this product's jobs). */
const EXPIRY_LOCK = 74_201;
const BATCH = 200;

/**
 * Cancels unpaid, unmarked escrows whose payment deadline has passed (`EscrowExpired`, actor system) and frees
 * their addresses. Idempotent: an escrow that was marked, cancelled or expired meanwhile is refused by its
 * machine and skipped. Answers how many it expired, or null when another process is running it.
 */
export async function expireOverdueEscrows(
  deps: Pick<AppDeps, 'database' | 'store' | 'config'>,
  now = new Date(),
): Promise<number | null> {
  const { db } = deps.database;
  return withJobLock(deps.database, EXPIRY_LOCK, async () => {
    let expired = 0;
    for (;;) {
      const due = await db
        .selectFrom('escrows')
        .select('id')
        .where('status', '=', 'pending_payment')
        .where('payment_marked_at', 'is', null)
        .where('payment_due_at', '<', now)
        .orderBy('payment_due_at')
        .limit(BATCH)
        .execute();
      const before = expired;
      for (const { id } of due) {
        try {
          await endUnpaid(
            deps.store,
            { escrowId: id, how: 'expire', by: 'system' },
            { actor: 'system', requestId: `expiry-job:${now.toISOString()}`, now: now.toISOString() },
          );
          expired++;
        } catch (error) {
          // Changed since the query (marked, cancelled, frozen): its machine said no; leave it.
          if (!(error instanceof DomainError)) throw error;
        }
      }
      // A short batch was the last; a batch where nothing could be expired would only come back the same.
      if (due.length < BATCH || expired === before) return expired;
    }
  });
}
