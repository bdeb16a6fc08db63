import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.ts';
import { publicUrl } from '../config.ts';
import { mailWhenReady } from '../escrows/notifications.ts';

type Deps = Pick<AppDeps, 'database' | 'config'>;

/**
 * A deal accepted while its seller's replaced payout address was still held becomes ready to release when the hold
 * runs out, with no event to say so: mails the admins then, once (contract 7.4; the notice is the one the events'
 * mail takes, so a deal already announced is not announced again).
 */
export async function mailReadyAfterHolds(deps: Deps, now: Date): Promise<void> {
  const { db } = deps.database;
  const due = await db
    .selectFrom('escrows')
    .selectAll()
    .where('buyer_confirmed_at', 'is not', null)
    .where('closed_at', 'is', null)
    .where('settlement_proposal_id', 'is', null)
    .where('payout_address_held_until', '<=', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notices')
            .select('name')
            .where('name', '=', sql<string>`'ready_to_release:' || escrows.id`),
        ),
      ),
    )
    .execute();
  for (const escrow of due) {
    await db.transaction().execute((trx) => mailWhenReady(trx, escrow, publicUrl(deps.config), now.toISOString()));
  }
}
