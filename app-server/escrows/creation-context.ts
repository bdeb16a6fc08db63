import { CompiledQuery, type Kysely } from 'kysely';
import { type Limit, type Reservation, reservationOf, windowsAt } from '../auth/rate-limit.ts';
import { PREPARE } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { checkpointLine } from '../mail/checkpoint-line.ts';

/** What opening an escrow needs to know before it decides, read while its slot of the per-user limit is taken. */
export interface CreationContext {
  /** The creator's slot in the per-user limit (given back when the escrow is not opened). */
  slot: Reservation;
  /** The rate and fee in force; null before an admin set the rate. */
  pricing: { rate_cents: number; fee_bps: number } | null;
  /** The verified buyer or seller account holding the counterparty's e-mail address, bound at once. */
  counterpartyId: string | null;
  /** The invitation's last line: the transparency log's latest checkpoint (null before the first is signed). */
  checkpointLine: string | null;
}

/**
 * ONE statement for what a creation used to ask in five (the slot, the previous window's count, the pricing, the
 * counterparty's account, the latest checkpoint for the invitation's last line). Every creation of one user takes the same counter row, so the statement's commit skips
 * its own WAL flush (`synchronous_commit` off for this transaction only): its row lock is then held for the
 * statement, not for a disk flush, and the creations of one user no longer queue behind each other's flushes.
 * Nothing is lost by it: the slot is written to the WAL before the escrow's events, whose commit flushes the WAL
 * up to them, so an escrow that committed always has its slot; a slot whose escrow never committed may be lost in
 * a crash, which only gives back a slot that was not used.
 */
const TEXT = `${PREPARE} WITH quick AS (SELECT set_config('synchronous_commit', 'off', true) AS setting),
slot AS (
  INSERT INTO rate_limit_counters (bucket, key, window_start, count) VALUES ($1, $2, $3, 1)
  ON CONFLICT (bucket, key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
  RETURNING count
)
SELECT slot.count AS current,
  coalesce((SELECT count FROM rate_limit_counters WHERE bucket = $1 AND key = $2 AND window_start = $4), 0) AS previous,
  settings.rate_cents, settings.fee_bps,
  (SELECT id FROM users WHERE lower(email) = $5 AND email_verified AND role <> 'admin') AS counterparty_id,
  checkpoint.note AS checkpoint_note, checkpoint.size AS checkpoint_size, checkpoint.root_hash AS checkpoint_root
FROM quick CROSS JOIN slot LEFT JOIN settings ON settings.id = 1
LEFT JOIN LATERAL (SELECT note, size, root_hash FROM tlog_checkpoints ORDER BY size DESC LIMIT 1) AS checkpoint ON true`;

interface Found {
  current: number | string;
  previous: number | string;
  rate_cents: number | string | null;
  fee_bps: number | string | null;
  counterparty_id: string | null;
  checkpoint_note: string | null;
  checkpoint_size: number | string | null;
  checkpoint_root: string | null;
}

export async function creationContext(
  db: Kysely<Database>,
  {
    limit,
    userId,
    counterpartyEmail,
    detail,
    now = new Date(),
  }: { limit: Limit; userId: string; counterpartyEmail: string; detail: string; now?: Date },
): Promise<CreationContext> {
  const { start, previousStart, elapsed } = windowsAt(limit, now);
  const values = [
    limit.bucket,
    userId,
    start.toISOString(),
    previousStart.toISOString(),
    counterpartyEmail.toLowerCase(),
  ];
  const found = (await db.executeQuery<Found>(CompiledQuery.raw(TEXT, values))).rows[0]!;
  const counts = { current: Number(found.current), previous: Number(found.previous), elapsed };
  const slot = await reservationOf(db, limit, userId, { start, counts }, detail);
  const rate = Number(found.rate_cents ?? 0);
  return {
    slot,
    pricing: rate ? { rate_cents: rate, fee_bps: Number(found.fee_bps) } : null,
    counterpartyId: found.counterparty_id,
    checkpointLine:
      found.checkpoint_note === null
        ? null
        : checkpointLine({
            note: found.checkpoint_note,
            size: Number(found.checkpoint_size),
            root_hash: found.checkpoint_root ?? '',
          }),
  };
}
