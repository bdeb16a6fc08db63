import type { Kysely } from 'kysely';
import type { Escrow } from '../../contract/escrows.ts';
import { escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowEvent } from '../../domain/escrow/events.ts';
import { partyHistory } from '../../domain/escrow/history.ts';
import { streamId } from '../../domain/events.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { escrowStatusOf, evolveEscrow, initialEscrowState } from '../../domain/escrow/state.ts';
import type { Database } from '../db/schema.ts';
import { readStream } from '../event-store/read.ts';
import { summarise } from '../../projections/audit-log/summary.ts';
import type { DomainEvent } from '../../domain/events.ts';
import { usernamesIn, withUsernames } from '../audit/usernames.ts';
import { evidenceByEscrow } from './evidence-list.ts';
import { actingOnRow, ESCROW_STATE_COLUMNS } from './allowed-actions.ts';
import { escrowViewJson, withSide } from './view.ts';

/** A dispute's escrow and whether it is still open. */
export const disputeById = (db: Kysely<Database>, disputeId: string) =>
  db.selectFrom('disputes').select(['escrow_id', 'status']).where('id', '=', disputeId).executeTakeFirst();

/** Every dispute, open first, newest first, each with its escrow's evidence. */
export async function disputesForAdmin(db: Kysely<Database>) {
  const rows = await db.selectFrom('disputes').selectAll().orderBy('status').orderBy('opened_at', 'desc').execute();
  const evidence = await evidenceByEscrow(db, [...new Set(rows.map((r) => r.escrow_id))]);
  return rows.map((r) => ({
    ...r,
    opened_at: r.opened_at.toISOString(),
    resolved_at: r.resolved_at?.toISOString() ?? null,
    evidence: evidence.get(r.escrow_id)!,
  }));
}

/** Marked payments awaiting an admin, oldest first: the escrow as admins see it, the current mark and its evidence. */
export async function pendingVerifications(db: Kysely<Database>) {
  const marks = await db
    .selectFrom('payment_mark_current as cur')
    .innerJoin('payment_marks as m', (j) =>
      j.onRef('m.escrow_id', '=', 'cur.escrow_id').onRef('m.mark_position', '=', 'cur.mark_position'),
    )
    .innerJoin('escrows as e', 'e.id', 'cur.escrow_id')
    .select([...ESCROW_STATE_COLUMNS, escrowViewJson().as('view'), 'm.notes as mark_notes', 'm.marked_at as mark_at'])
    .orderBy('m.marked_at')
    .execute();
  const evidence = await evidenceByEscrow(
    db,
    marks.map((m) => m.id),
    { currentMarkOnly: true },
  );
  return marks.map(({ view, mark_notes, mark_at, ...row }) => ({
    escrow: JSON.parse(withSide(view, 'admin', actingOnRow(row, 'admin'))) as Escrow,
    notes: mark_notes,
    marked_at: mark_at.toISOString(),
    evidence: evidence.get(row.id)!,
  }));
}

/**
 * The escrow event by event, as admins read it: each in words (the audit log's sentence, users by username), who
 * acted, and its status and key facts after it; empty: no such escrow.
 */
export async function escrowHistoryForAdmin(db: Kysely<Database>, escrowId: string) {
  const { events } = await readStream(db, `escrow:${escrowId}`);
  const summaries = events.map((event) => summarise(event as unknown as DomainEvent, escrowId));
  const names = await usernamesIn(db, [...summaries, ...events.map((e) => e.metadata.actor)]);
  let state = initialEscrowState();
  return events.map((event, i) => {
    state = evolveEscrow(state, event as unknown as EscrowEvent & { occurred_at: string });
    const { context } = state;
    return {
      position: event.position,
      version: event.stream_version,
      type: event.type,
      summary: withUsernames(summaries[i]!, names),
      occurred_at: event.occurred_at,
      actor: event.metadata.actor,
      actor_username: names.get(event.metadata.actor.toLowerCase()) ?? null,
      data: event.data,
      status_after: escrowStatusOf(state.snapshot),
      after: {
        address: context.address,
        payment_marked_at: context.payment_marked_at,
        buyer_confirmed_at: context.buyer_confirmed_at,
        payout_address: context.payout_address,
        refund_address: context.refund_address,
        dispute_id: context.dispute_id,
      },
    };
  });
}

/** What is known of one evidence file (its escrow, name, type and digest), without its content. */
export const evidenceFacts = (db: Kysely<Database>, evidenceId: string) =>
  db.selectFrom('payment_evidence').selectAll().where('evidence_id', '=', evidenceId).executeTakeFirst();

/** The bytes of one evidence file. */
export const evidenceContent = async (db: Kysely<Database>, evidenceId: string) =>
  (await db.selectFrom('evidence_files').select('content').where('evidence_id', '=', evidenceId).executeTakeFirst())
    ?.content;

/** The escrow's timeline as its parties may read it (no admin notes, no account ids), oldest first. */
export async function escrowHistoryForParties(db: Kysely<Database>, escrowId: string) {
  const { events } = await readStream(db, streamId(escrowAggregate.streamType, escrowId));
  return partyHistory(
    events.filter((e): e is StoredEvent<EscrowEvent> => e.stream_type === escrowAggregate.streamType),
  );
}
