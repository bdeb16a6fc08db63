import { chainHash, envelopeOf } from '../../domain/chain.ts';
import { escrowAggregate } from '../../domain/aggregates.ts';
import { streamId } from '../../domain/events.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { readStream } from '../event-store/read.ts';
import type { AppDeps } from '../app-deps.ts';
import { mailAdminsOnce } from './notifications.ts';

const stopped = (why: string) =>
  new DomainError('not_ready', `Money actions are stopped: ${why}. An operator must look into it before any money moves`, { 'Retry-After': '600' });

/**
 * Checked before every money action (verify-payment, release, refund, resolve): the server's last check of the hash
 * chain found no break; this escrow's events still match their hashes, read from the database (not from memory);
 * and the read model's money fields (what the admin was shown) agree with those events. Otherwise 503, and the
 * admins are mailed once per escrow.
 */
export async function assertMoneyMayMove(deps: AppDeps, escrowId: string): Promise<void> {
  const chain = deps.chainWatch?.state();
  if (chain?.status === 'broken' && chain.broken) {
    throw stopped(`the event log failed its integrity check at event ${chain.broken.position} (${chain.broken.reason})`);
  }
  const { db } = deps.database;
  // The events and the row from one snapshot: an append commits both together, so a concurrent release is never
  // mistaken for tampering.
  const { events, row } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => ({
      events: (await readStream(trx, streamId('escrow', escrowId))).events,
      row: await trx
        .selectFrom('escrows')
        .select(['status', 'amount_sats', 'fee_cents', 'total_cents', 'assigned_address', 'payout_address', 'refund_address'])
        .where('id', '=', escrowId)
        .executeTakeFirst(),
    }));
  if (events.length === 0) return; // no such escrow: the action answers 404
  const changed = events.find((e) => chainHash(e.prev_hash, envelopeOf(e)) !== e.hash);
  if (changed) return refuse(deps, escrowId, `event ${changed.position} of this escrow no longer matches its hash`);
  const state = events.reduce(escrowAggregate.evolve, escrowAggregate.initial());
  if (!row) return refuse(deps, escrowId, 'the escrow has events but no row in the read model');
  const { context } = state;
  const expected: Record<string, unknown> = {
    status: state.status,
    amount_sats: context.amount_sats,
    fee_cents: context.fee_cents,
    total_cents: context.total_cents,
    assigned_address: context.address,
    payout_address: context.payout_address,
    refund_address: context.refund_address,
  };
  const differs = Object.keys(expected).filter((field) => {
    const shown = row[field as keyof typeof row];
    return (typeof expected[field] === 'number' ? Number(shown) : shown) !== expected[field];
  });
  if (differs.length) return refuse(deps, escrowId, `the stored ${differs.join(', ')} of this escrow disagree${differs.length === 1 ? 's' : ''} with its events`);
}

async function refuse(deps: AppDeps, escrowId: string, why: string): Promise<never> {
  deps.logger.error({ escrow_id: escrowId, reason: why }, `Escrow ${escrowId} tampered: ${why}`);
  await mailAdminsOnce(deps.database.db, `escrow_tampered:${escrowId}`, {
    subject: 'Money actions stopped on an escrow: its records were changed',
    lines: [
      `Escrow ${escrowId}: ${why}.`,
      'Releases, refunds, verifications and resolutions on it are refused until this is explained. Check the log with verify-chain and compare the read models with a replay.',
    ],
  });
  throw stopped(why);
}
