import { type Kysely, sql, type Transaction } from 'kysely';
import { chainHash, envelopeOf, GENESIS_HASH } from '../../domain/chain.ts';
import { escrowAggregate } from '../../domain/aggregates.ts';
import { streamId } from '../../domain/events.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import { readStream } from '../event-store/read.ts';
import type { AppDeps } from '../app-deps.ts';
import { mailAdminsOnce } from '../mail/admins.ts';

const stopped = (why: string) =>
  new DomainError('not_ready', `Money actions are stopped: ${why}. An operator must look into it before any money moves`, { 'Retry-After': '600' });

/** What the check found wrong with an escrow's records: the position it points at, and why. */
export interface StreamProblem {
  position: number;
  reason: string;
}

/** Thrown inside the money action's transaction (rolling it back); `guardMoneyAction` turns it into the 503. */
class TamperFound extends Error {
  constructor(readonly problem: StreamProblem) {
    super(problem.reason);
  }
}

interface Link {
  position: number;
  /** The hash of the event at position - 1 (null: no such event). */
  before_hash: string | null;
  /** The prev_hash of the event at position + 1 (null: no such event). */
  after_prev_hash: string | null;
  after_exists: boolean;
}

/**
 * The escrow's whole stream and its read-model row, as `executor` sees them, checked against each other:
 * - each event's hash recomputed from its content and its stored prev_hash;
 * - each event linked into the global chain: its prev_hash is the hash of the event at the position before it (the
 *   genesis hash for the first), and the event after it (or the chain head, for the last event) links to its hash:
 *   an event rewritten with its own hash recomputed no longer matches what follows it;
 * - stream versions 1, 2, 3... with no gap, the first an EscrowCreated, and the last the stream's recorded version:
 *   a deleted event leaves a gap (or a shorter stream);
 * - the row's status and money fields equal the fold of the events.
 * Null when everything agrees, or when the escrow has no events (the action answers 404; an escrow whose every
 * event was deleted has no state a money action could pass, and the chain watch finds the gap).
 */
export async function checkEscrowRecords(executor: Kysely<Database>, escrowId: string): Promise<StreamProblem | null> {
  const stream = streamId('escrow', escrowId);
  const [{ events }, links, recorded, head, row] = await Promise.all([
    readStream(executor, stream),
    sql<{ position: string | number; before_hash: string | null; after_prev_hash: string | null; after_exists: boolean }>`
      SELECT e.position, b.hash AS before_hash, a.prev_hash AS after_prev_hash, (a.position IS NOT NULL) AS after_exists
      FROM events e
      LEFT JOIN events b ON b.position = e.position - 1
      LEFT JOIN events a ON a.position = e.position + 1
      WHERE e.stream_id = ${stream}`.execute(executor),
    executor.selectFrom('streams').select('version').where('stream_id', '=', stream).executeTakeFirst(),
    executor.selectFrom('chain_head').select(['position', 'hash']).where('id', '=', 1).executeTakeFirst(),
    executor
      .selectFrom('escrows')
      .select(['status', 'amount_sats', 'fee_cents', 'total_cents', 'assigned_address', 'payout_address', 'refund_address'])
      .where('id', '=', escrowId)
      .executeTakeFirst(),
  ]);
  // No such escrow (the action answers 404). Ids compare without case in the read model, stream ids with it.
  if (events.length === 0) return null;
  const byPosition = new Map<number, Link>(
    links.rows.map((l) => [Number(l.position), { position: Number(l.position), before_hash: l.before_hash, after_prev_hash: l.after_prev_hash, after_exists: l.after_exists }]),
  );
  const headPosition = head ? Number(head.position) : 0;
  const found = eventProblem(events, byPosition, head ? { position: headPosition, hash: head.hash } : null);
  if (found) return found;
  const last = events.at(-1)!;
  if (!recorded || Number(recorded.version) !== last.stream_version) {
    return { position: last.position, reason: `the stream records version ${recorded?.version ?? 'none'}, but its last event is version ${last.stream_version} (events were removed)` };
  }
  if (!row) return { position: last.position, reason: 'the escrow has events but no row in the read model' };
  const { status, context } = events.reduce(escrowAggregate.evolve, escrowAggregate.initial());
  const expected: Record<string, unknown> = {
    status,
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
  if (differs.length) {
    return { position: last.position, reason: `the stored ${differs.join(', ')} of this escrow disagree${differs.length === 1 ? 's' : ''} with its events` };
  }
  return null;
}

function eventProblem(events: readonly StoredEvent[], links: Map<number, Link>, head: { position: number; hash: string } | null): StreamProblem | null {
  if (events[0]!.type !== 'EscrowCreated') {
    return { position: events[0]!.position, reason: `the escrow's first event is a ${events[0]!.type}, not its EscrowCreated (events were removed)` };
  }
  for (const [i, event] of events.entries()) {
    const at = `event ${event.position} of this escrow`;
    if (event.stream_version !== i + 1) {
      return { position: event.position, reason: `${at} is version ${event.stream_version} where version ${i + 1} belongs (an event of the escrow was removed)` };
    }
    if (chainHash(event.prev_hash, envelopeOf(event)) !== event.hash) return { position: event.position, reason: `${at} no longer matches its hash` };
    const link = links.get(event.position);
    if (!link) return { position: event.position, reason: `${at} could not be found again` };
    const before = event.position === 1 ? GENESIS_HASH : link.before_hash;
    if (before === null) return { position: event.position, reason: `the event before ${at} is gone` };
    if (before !== event.prev_hash) return { position: event.position, reason: `${at} does not link to the event before it` };
    if (link.after_exists) {
      if (link.after_prev_hash !== event.hash) return { position: event.position + 1, reason: `the event after ${at} does not link to it (it was rewritten)` };
    } else if (!head || head.position !== event.position || head.hash !== event.hash) {
      return { position: event.position, reason: `${at} is the last in the log, but the chain head records event ${head?.position ?? 'none'} (events were removed or rewritten)` };
    }
  }
  return null;
}

/**
 * Runs one money action (verify-payment, release, refund, resolve) with the escrow's records checked twice: before
 * the command is decided (a mismatch answers 503 before anything else is said about the escrow), and again inside
 * the transaction that appends its events, after they are written and while the append holds the chain head's
 * lock (`alsoWrite` is handed to the append): what the action commits is what was checked, with no moment between
 * the check and the money moving. Any mismatch rolls the action back and answers 503, marks the chain broken in the
 * server's chain watch (readiness and the admin chain view say so; every money action stops) and mails the admins
 * once per escrow. A chain already known to be broken stops the action at once.
 */
export async function guardMoneyAction<T>(
  deps: AppDeps,
  escrowId: string,
  action: (alsoWrite: (trx: Transaction<Database>) => Promise<void>) => Promise<T>,
): Promise<T> {
  const chain = deps.chainWatch?.state();
  if (chain?.status === 'broken' && chain.broken) {
    throw stopped(`the event log failed its integrity check at event ${chain.broken.position} (${chain.broken.reason})`);
  }
  // The events and the rows from one snapshot: an append commits them together, so a concurrent one is never
  // mistaken for tampering.
  const before = await deps.database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => checkEscrowRecords(trx, escrowId));
  if (before) return refuse(deps, escrowId, before);
  try {
    return await action(async (trx) => {
      const found = await checkEscrowRecords(trx, escrowId);
      if (found) throw new TamperFound(found);
    });
  } catch (error) {
    if (error instanceof TamperFound) return refuse(deps, escrowId, error.problem);
    throw error;
  }
}

async function refuse(deps: AppDeps, escrowId: string, problem: StreamProblem): Promise<never> {
  const why = problem.reason;
  deps.logger.error({ escrow_id: escrowId, chain_position: problem.position, reason: why }, `Escrow ${escrowId} tampered: ${why}`);
  deps.chainWatch?.markBroken({ position: problem.position, reason: `escrow ${escrowId}: ${why}` });
  await mailAdminsOnce(deps.database.db, `escrow_tampered:${escrowId}`, {
    subject: 'Money actions stopped on an escrow: its records were changed',
    lines: [
      `Escrow ${escrowId}: ${why}.`,
      'Every release, refund, payment verification and dispute resolution is refused until this is explained and a full check of the event log (the admin chain view) passes. Check the log with verify-chain and compare the read models with a replay.',
    ],
  });
  throw stopped(why);
}
