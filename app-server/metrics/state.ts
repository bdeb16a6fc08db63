import { type Kysely, sql } from 'kysely';
import type { ChainWatch } from '../audit/chain-watch.ts';
import type { Database } from '../db/schema.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { MAX_MAIL_ATTEMPTS } from '../mail/sender.ts';
import type { Metrics } from './metrics.ts';

const ESCROW_STATUSES = ['pending_payment', 'funded', 'released', 'disputed', 'frozen', 'cancelled', 'refunded'];
const ADDRESS_STATUSES = ['available', 'assigned', 'used'];
const CHAIN_STATUSES = ['ok', 'broken', 'unverified'] as const;

/** Sets the gauges from the database and the chain watch, just before a scrape reads them. */
export async function refreshStateGauges(
  metrics: Metrics,
  db: Kysely<Database>,
  chainWatch: ChainWatch | undefined,
  now = new Date(),
) {
  const [escrows, held, addresses, outbox, settings, head] = await Promise.all([
    db
      .selectFrom('escrows')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('escrows')
      .select(sql<string>`coalesce(sum(amount_sats), 0)::text`.as('sats'))
      .where('funded_at', 'is not', null)
      .where('closed_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('addresses')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('mail_outbox')
      .select([
        sql<number>`count(*) FILTER (WHERE attempts = 0)::int`.as('queued'),
        sql<number>`count(*) FILTER (WHERE attempts > 0 AND attempts < ${MAX_MAIL_ATTEMPTS})::int`.as('retrying'),
        sql<number>`count(*) FILTER (WHERE attempts >= ${MAX_MAIL_ATTEMPTS})::int`.as('given_up'),
        sql<number>`coalesce(sum(attempts), 0)::int`.as('failed_attempts'),
      ])
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('settings')
      .select('rate_set_at')
      .where('id', '=', 1)
      .where('rate_cents', 'is not', null)
      .executeTakeFirst(),
    readChainHead(db),
  ]);

  const byStatus = (rows: { status: string; n: number }[], status: string) =>
    rows.find((r) => r.status === status)?.n ?? 0;
  for (const status of ESCROW_STATUSES) metrics.escrows.set({ status }, byStatus(escrows, status));
  for (const status of ADDRESS_STATUSES) metrics.poolAddresses.set({ status }, byStatus(addresses, status));
  metrics.satsHeld.set(Number(held.sats));
  for (const state of ['queued', 'retrying', 'given_up'] as const) metrics.mailOutbox.set({ state }, outbox[state]);
  metrics.mailFailedAttempts.set(outbox.failed_attempts);
  metrics.rateSet.set(settings?.rate_set_at ? 1 : 0);
  metrics.rateAge.set(
    settings?.rate_set_at
      ? Math.max(0, Math.floor((now.getTime() - new Date(settings.rate_set_at).getTime()) / 1000))
      : 0,
  );
  metrics.chainHead.set(Number(head?.position ?? 0));
  const watched = chainWatch?.state();
  for (const status of CHAIN_STATUSES)
    metrics.chainStatus.set({ status }, (watched?.status ?? 'unverified') === status ? 1 : 0);
  metrics.chainVerifiedUpTo.set(watched?.verifiedUpTo ?? 0);
}
