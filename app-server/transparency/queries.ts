import { type Kysely, sql } from 'kysely';
import { invalidInput, notFound } from '../../domain/shared/errors.ts';
import { toBase64 } from '../../domain/transparency/merkle.ts';
import type { CheckpointEntry, EscrowProof } from '../../contract/transparency.ts';
import type { Database } from '../db/schema.ts';
import { eventLineSql } from '../event-store/export.ts';
import { storedConsistencyProof, storedInclusionProof } from './tree.ts';

const entry = (row: { size: number; root_hash: string; signed_at: Date | string; note: string }): CheckpointEntry => ({
  size: Number(row.size),
  root_hash: row.root_hash,
  signed_at: new Date(row.signed_at).toISOString(),
  note: row.note,
});

export async function latestCheckpoint(db: Kysely<Database>): Promise<(CheckpointEntry & { vkey: string }) | null> {
  const row = await db.selectFrom('tlog_checkpoints').selectAll().orderBy('size', 'desc').limit(1).executeTakeFirst();
  return row ? { ...entry(row), vkey: row.vkey } : null;
}

/** Checkpoints after `after` (a size), oldest first, a page at a time. */
export async function checkpointsAfter(db: Kysely<Database>, after: number, limit = 1_000): Promise<CheckpointEntry[]> {
  const rows = await db
    .selectFrom('tlog_checkpoints')
    .selectAll()
    .where('size', '>', after)
    .orderBy('size')
    .limit(limit)
    .execute();
  return rows.map(entry);
}

async function requireCheckpointSize(db: Kysely<Database>, size: number, field: string): Promise<void> {
  const row = await db.selectFrom('tlog_checkpoints').select('size').where('size', '=', size).executeTakeFirst();
  if (!row) throw invalidInput(`${field} must be the size of a signed checkpoint (see /api/transparency/checkpoints)`);
}

export async function inclusionAnswer(db: Kysely<Database>, index: number, size: number) {
  await requireCheckpointSize(db, size, 'size');
  if (index >= size) throw invalidInput('index must be less than size');
  return { index, size, proof: (await storedInclusionProof(db, index, size)).map(toBase64) };
}

export async function consistencyAnswer(db: Kysely<Database>, from: number, to: number) {
  await requireCheckpointSize(db, to, 'to');
  if (from < 1 || from > to) throw invalidInput('from must be between 1 and to');
  return { from, to, proof: (await storedConsistencyProof(db, from, to)).map(toBase64) };
}

/** Every event of one escrow's stream, each with its export line and inclusion proof up to the latest checkpoint. */
export async function escrowProof(db: Kysely<Database>, escrowId: string): Promise<EscrowProof> {
  const checkpoint = await latestCheckpoint(db);
  if (!checkpoint) throw notFound('No checkpoint is signed yet; try again within a minute');
  const { rows } = await sql<{ position: string | number; line: string }>`
    SELECT position, ${eventLineSql()} AS line FROM events WHERE stream_id = ${`escrow:${escrowId}`} ORDER BY position`.execute(
    db,
  );
  const covered = rows.filter((r) => Number(r.position) <= checkpoint.size);
  const events = [];
  for (const row of covered) {
    const position = Number(row.position);
    events.push({
      position,
      line: row.line,
      inclusion: (await storedInclusionProof(db, position - 1, checkpoint.size)).map(toBase64),
    });
  }
  return { checkpoint: checkpoint.note, vkey: checkpoint.vkey, events, pending_events: rows.length - covered.length };
}
