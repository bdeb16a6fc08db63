import { type Kysely, sql, type Transaction } from 'kysely';
import { chainHash, envelopeOf, GENESIS_HASH } from '../../domain/chain.ts';
import { escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowState } from '../../domain/escrow/state.ts';
import { streamId } from '../../domain/events.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import type { LoadedAggregate } from '../event-store/event-store.ts';
import type { AppDeps } from '../app-deps.ts';
import { mailAdminsOnce } from '../mail/admins.ts';
import { escrowView, escrowViewJson } from './view.ts';

const stopped = (why: string) =>
  new DomainError(
    'not_ready',
    `Money actions are stopped: ${why}. An operator must look into it before any money moves`,
    { 'Retry-After': '600' },
  );

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
  /** The hash the database holds for the event. */
  hash: string;
  /** The hash of the event at position - 1 (null: no such event). */
  before_hash: string | null;
  /** The prev_hash of the event at position + 1 (null: no such event). */
  after_prev_hash: string | null;
  after_exists: boolean;
}

/** Each event of the escrow's stream as the database holds it now, with its neighbours in the global chain. */
async function linksOf(executor: Kysely<Database>, stream: string): Promise<Map<number, Link>> {
  const { rows } = await sql<{
    position: string | number;
    hash: string;
    before_hash: string | null;
    after_prev_hash: string | null;
    after_exists: boolean;
  }>`
    SELECT e.position, e.hash, b.hash AS before_hash, a.prev_hash AS after_prev_hash, (a.position IS NOT NULL) AS after_exists
    FROM events e
    LEFT JOIN events b ON b.position = e.position - 1
    LEFT JOIN events a ON a.position = e.position + 1
    WHERE e.stream_id = ${stream}`.execute(executor);
  return new Map(rows.map((l) => [Number(l.position), { ...l, position: Number(l.position) }]));
}

/** The row's columns the looks compare with the events. */
const ROW_COLUMNS = [
  'e.status',
  'e.amount_sats',
  'e.fee_cents',
  'e.total_cents',
  'e.assigned_address',
  'e.payout_address',
  'e.refund_address',
] as const;

/**
 * The first look, before the command is decided, at the stream the command read and the state it folded (one read,
 * one fold: the command's own): the events themselves and their links in the global chain as the database holds
 * them now (see `eventProblem`), and the read-model row against the state, when the stream is still at the version
 * read (the row and the stream's recorded version come from one statement, so a concurrent append is never taken
 * for tampering: it moved the version on, and the append will be refused as a conflict). The chain head is left to
 * the second look, under its lock. Null when nothing is wrong, or when the escrow has no events (404).
 */
async function firstLook(
  db: Kysely<Database>,
  escrowId: string,
  { events, state }: LoadedAggregate<EscrowState>,
): Promise<StreamProblem | null> {
  if (events.length === 0) return null;
  const stream = streamId('escrow', escrowId);
  const [links, row] = await Promise.all([
    linksOf(db, stream),
    db
      .selectFrom('escrows as e')
      .select([
        ...ROW_COLUMNS,
        (eb) => eb.selectFrom('streams').select('version').where('stream_id', '=', stream).as('recorded_version'),
      ])
      .where('e.id', '=', escrowId)
      .executeTakeFirst(),
  ]);
  const last = events.at(-1)!;
  const problem = eventProblem(events, links, 'not_yet');
  if (problem) return problem;
  if (!row) return { position: last.position, reason: 'the escrow has events but no row in the read model' };
  return Number(row.recorded_version) === last.stream_version ? rowProblem(row, state, last.position) : null;
}

/**
 * The second look, inside the money action's transaction after its events are written: the stream in the database
 * is exactly the events read (as they were read) and the new ones, linked into the chain up to its head, its
 * recorded version the last one's, and the escrow's read-model row what `after` (the state the command read, with
 * its new events folded on) says. Answers the row's view for the command's answer.
 */
async function secondLook(
  trx: Transaction<Database>,
  escrowId: string,
  events: readonly StoredEvent[],
  after: EscrowState,
): Promise<{ problem: StreamProblem | null; view: string | undefined }> {
  const stream = streamId('escrow', escrowId);
  const [links, recorded, head, row] = await Promise.all([
    linksOf(trx, stream),
    trx.selectFrom('streams').select('version').where('stream_id', '=', stream).executeTakeFirst(),
    trx.selectFrom('chain_head').select(['position', 'hash']).where('id', '=', 1).executeTakeFirst(),
    trx
      .selectFrom('escrows as e')
      .select([...ROW_COLUMNS, escrowViewJson().as('view')])
      .where('e.id', '=', escrowId)
      .executeTakeFirst(),
  ]);
  const last = events.at(-1)!;
  const known = new Set(events.map((e) => e.position));
  const unknown = [...links.keys()].find((position) => !known.has(position));
  const problem =
    eventProblem(events, links, head ? { position: Number(head.position), hash: head.hash } : null) ??
    (unknown !== undefined
      ? {
          position: unknown,
          reason: `event ${unknown} of this escrow was not in its stream when the action read it (it was inserted)`,
        }
      : null) ??
    (!recorded || Number(recorded.version) !== last.stream_version
      ? {
          position: last.position,
          reason: `the stream records version ${recorded?.version ?? 'none'}, but its last event is version ${last.stream_version} (events were removed)`,
        }
      : null) ??
    (row
      ? rowProblem(row, after, last.position)
      : { position: last.position, reason: 'the escrow has events but no row in the read model' });
  return { problem, view: row?.view };
}

/** The row's status and money fields against the state the events make. */
function rowProblem(
  row: Record<string, unknown>,
  { status, context }: EscrowState,
  position: number,
): StreamProblem | null {
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
    const shown = row[field];
    return (typeof expected[field] === 'number' ? Number(shown) : shown) !== expected[field];
  });
  if (differs.length === 0) return null;
  return {
    position,
    reason: `the stored ${differs.join(', ')} of this escrow disagree${differs.length === 1 ? 's' : ''} with its events`,
  };
}

/**
 * The escrow's events checked on their own and against the database's links:
 * - the first an EscrowCreated, stream versions 1, 2, 3... with no gap (a deleted event leaves one);
 * - each event's hash recomputed from its content and its stored prev_hash, and the one the database holds now;
 * - each event linked into the global chain: its prev_hash is the hash of the event at the position before it (the
 *   genesis hash for the first), and the event after it links to its hash: an event rewritten with its own hash
 *   recomputed no longer matches what follows it. The last event of the log must be the chain head's; before the
 *   append (`not_yet`), another append may have moved the head on, so that is left to the second look.
 */
function eventProblem(
  events: readonly StoredEvent[],
  links: Map<number, Link>,
  head: { position: number; hash: string } | null | 'not_yet',
): StreamProblem | null {
  if (events[0]!.type !== 'EscrowCreated') {
    return {
      position: events[0]!.position,
      reason: `the escrow's first event is a ${events[0]!.type}, not its EscrowCreated (events were removed)`,
    };
  }
  for (const [i, event] of events.entries()) {
    const at = `event ${event.position} of this escrow`;
    if (event.stream_version !== i + 1) {
      return {
        position: event.position,
        reason: `${at} is version ${event.stream_version} where version ${i + 1} belongs (an event of the escrow was removed)`,
      };
    }
    if (chainHash(event.prev_hash, envelopeOf(event)) !== event.hash)
      return { position: event.position, reason: `${at} no longer matches its hash` };
    const link = links.get(event.position);
    if (!link) return { position: event.position, reason: `${at} is gone (events were removed)` };
    if (link.hash !== event.hash)
      return { position: event.position, reason: `${at} was rewritten while the action read it` };
    const before = event.position === 1 ? GENESIS_HASH : link.before_hash;
    if (before === null) return { position: event.position, reason: `the event before ${at} is gone` };
    if (before !== event.prev_hash)
      return { position: event.position, reason: `${at} does not link to the event before it` };
    if (link.after_exists) {
      if (link.after_prev_hash !== event.hash)
        return { position: event.position + 1, reason: `the event after ${at} does not link to it (it was rewritten)` };
    } else if (head !== 'not_yet' && (!head || head.position !== event.position || head.hash !== event.hash)) {
      return {
        position: event.position,
        reason: `${at} is the last in the log, but the chain head records event ${head?.position ?? 'none'} (events were removed or rewritten)`,
      };
    }
  }
  return null;
}

/** What a money action hands its escrow command: the first look, and the second, which goes with its append. */
export interface MoneyGuard {
  /** For the command's `check`: the first look at the stream it read from the database. */
  check: (loaded: LoadedAggregate<EscrowState>) => Promise<void>;
  /** For the append's `alsoWrite`: the second look, under the chain head's lock. */
  alsoWrite: (trx: Transaction<Database>, stored: StoredEvent[]) => Promise<void>;
}

/**
 * Runs one money action (verify-payment, release, refund, resolve) with the escrow's records checked twice, on the
 * one read of its stream and the one fold the command makes: before the command is decided (a mismatch answers 503
 * before anything else is said about the escrow), and again inside the transaction that appends its events, after
 * they are written and while the append holds the chain head's lock: what the action commits is what was checked,
 * with no moment between the check and the money moving. Any mismatch rolls the action back and answers 503, marks
 * the chain broken in the server's chain watch (readiness and the admin chain view say so; every money action
 * stops) and mails the admins once per escrow. A chain already known to be broken stops the action at once.
 * Answers the action's result and the escrow's view as its append left the row (the answer's JSON, see view.ts).
 */
export async function guardMoneyAction<T>(
  deps: AppDeps,
  escrowId: string,
  action: (guard: MoneyGuard) => Promise<T>,
): Promise<{ result: T; view: string }> {
  const chain = deps.chainWatch?.state();
  if (chain?.status === 'broken' && chain.broken) {
    throw stopped(
      `the event log failed its integrity check at event ${chain.broken.position} (${chain.broken.reason})`,
    );
  }
  const stream = streamId('escrow', escrowId);
  let read: LoadedAggregate<EscrowState> | undefined;
  let view: string | undefined;
  const guard: MoneyGuard = {
    async check(loaded) {
      read = { ...loaded, events: loaded.events.slice() };
      const found = await firstLook(deps.database.db, escrowId, read);
      if (found) throw new TamperFound(found);
    },
    async alsoWrite(trx, stored) {
      if (!read) throw new Error('the money guard saw no stream before the append');
      const mine = stored.filter((e) => e.stream_id === stream);
      const after = mine.reduce(escrowAggregate.evolve, read.state);
      const second = await secondLook(trx, escrowId, [...read.events, ...mine], after);
      if (second.problem) throw new TamperFound(second.problem);
      view = second.view;
    },
  };
  try {
    const result = await action(guard);
    return { result, view: view ?? (await escrowView(deps.database.db, escrowId)) };
  } catch (error) {
    if (error instanceof TamperFound) return refuse(deps, escrowId, error.problem);
    throw error;
  }
}

async function refuse(deps: AppDeps, escrowId: string, problem: StreamProblem): Promise<never> {
  const why = problem.reason;
  deps.logger.error(
    { escrow_id: escrowId, chain_position: problem.position, reason: why },
    `Escrow ${escrowId} tampered: ${why}`,
  );
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
