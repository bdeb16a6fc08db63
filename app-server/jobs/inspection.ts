import { SYSTEM_ACTOR } from '../../domain/shared/context.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import { publicUrl } from '../config.ts';
import { onEscrow } from '../escrows/commands.ts';
import { takeNotice } from '../mail/notices.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { escrowRef } from '../mail/user-words.ts';
import { withJobLock } from './job-lock.ts';
import { mailReadyAfterHolds } from './ready-after-hold.ts';

/** Advisory lock key of the inspection job (any constant unique among this product's jobs). */
const INSPECTION_LOCK = 74_202;
const BATCH = 200;
const DAY_MS = 86_400_000;

type Deps = Pick<AppDeps, 'database' | 'store' | 'config'>;

/**
 * The inspection period's clock (contract 7.3), run every few seconds on `now` (injectable, so tests and the
 * browser suite move it): reminds each buyer once, 24 hours before the period ends (or half-way through a shorter
 * one), and accepts each escrow whose period ended with neither acceptance nor dispute (a `ReceiptConfirmed` whose
 * actor is the system). Idempotent: an escrow accepted, disputed or frozen meanwhile is refused by its machine and
 * skipped. Then tells the admins of deals that became ready to release as a payout address's hold ran out. Answers how many it accepted, or null when another process is running it.
 */
export async function runInspectionClock(deps: Deps, now = new Date()): Promise<number | null> {
  return withJobLock(deps.database, INSPECTION_LOCK, async () => {
    await remindBuyers(deps, now);
    const accepted = await acceptEndedPeriods(deps, now);
    await mailReadyAfterHolds(deps, now);
    return accepted;
  });
}

async function acceptEndedPeriods(deps: Deps, now: Date): Promise<number> {
  const { db } = deps.database;
  let accepted = 0;
  for (;;) {
    const due = await db
      .selectFrom('escrows')
      .select('id')
      .where('buyer_confirmed_at', 'is', null)
      .where('closed_at', 'is', null)
      .where('inspection_ends_at', '<=', now)
      .orderBy('inspection_ends_at')
      .limit(BATCH)
      .execute();
    const before = accepted;
    for (const { id } of due) {
      const meta = { actor: SYSTEM_ACTOR, requestId: `inspection-job:${now.toISOString()}`, now: now.toISOString() };
      try {
        await onEscrow(deps.store, id, { type: 'acceptAfterInspection', by: 'system' }, meta);
        accepted++;
      } catch (error) {
        // Disputed, frozen or declined since the query: its machine said no; leave it.
        if (!(error instanceof DomainError)) throw error;
      }
    }
    if (due.length < BATCH || accepted === before) return accepted;
  }
}

/** When the reminder is due: 24 hours before the end, or half-way through a period shorter than two days. */
export function reminderAt(receivedAt: Date, endsAt: Date): Date {
  const lead = Math.min(DAY_MS, (endsAt.getTime() - receivedAt.getTime()) / 2);
  return new Date(endsAt.getTime() - lead);
}

/**
 * The once-only notice of a reminder: one per period, so a period both parties extended (contract 7.5) is reminded of
 * again before its new end. The period as created keeps the notice's first name.
 */
function reminderNotice(escrowId: string, receivedAt: Date, endsAt: Date, days: number | null) {
  const extended = days !== null && endsAt.getTime() - receivedAt.getTime() !== days * DAY_MS;
  return extended ? `inspection_reminder:${escrowId}:${endsAt.toISOString()}` : `inspection_reminder:${escrowId}`;
}

async function remindBuyers(deps: Deps, now: Date): Promise<void> {
  const { db } = deps.database;
  const running = await db
    .selectFrom('escrows')
    .select(['id', 'buyer_email', 'received_at', 'inspection_ends_at', 'inspection_days'])
    .where('buyer_confirmed_at', 'is', null)
    .where('closed_at', 'is', null)
    .where('inspection_ends_at', '>', now)
    .execute();
  for (const escrow of running) {
    if (!escrow.received_at || !escrow.inspection_ends_at) continue;
    if (reminderAt(escrow.received_at, escrow.inspection_ends_at) > now) continue;
    await db.transaction().execute(async (trx) => {
      const notice = reminderNotice(escrow.id, escrow.received_at!, escrow.inspection_ends_at!, escrow.inspection_days);
      if (!(await takeNotice(trx, notice))) return;
      const ref = escrowRef(escrow.id);
      await enqueueMail(trx, [
        {
          to: escrow.buyer_email,
          subject: `Inspection ends soon: ${ref}`,
          text: [
            `The inspection period of ${ref} ends ${displayUtc(escrow.inspection_ends_at!)}.`,
            'Accept the goods on the escrow page, or open a dispute before then if something is wrong: without either,',
            'the deal is accepted when the period ends and the money goes to the seller.',
            '',
            `Open it: ${publicUrl(deps.config)}/escrow/${escrow.id}`,
          ].join('\n'),
        },
      ]);
    });
  }
}
