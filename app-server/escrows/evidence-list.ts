import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * One evidence file as every answer lists it: the spec's item (`id`, `notes`, `file_path`, the URL that serves it)
 * beside what the server knows of the file. `notes` are the buyer's notes on the payment mark the file came with.
 */
export interface EvidenceItem {
  id: string;
  notes: string;
  file_path: string;
  evidence_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  url: string;
  marked_at: string;
  /** The mark's fate: pending (being checked), rejected or verified. */
  mark_status: 'pending' | 'rejected' | 'verified';
}

/** Where a file is downloaded, to admins and the escrow's parties only. */
export const evidencePath = (evidenceId: string) => `/api/evidence/${evidenceId}`;

/**
 * The evidence of these escrows, per escrow id, oldest mark first: every mark's files, or with `currentMarkOnly` the
 * files of the mark awaiting an admin.
 */
export async function evidenceByEscrow(
  db: Kysely<Database>,
  escrowIds: readonly string[],
  options: { currentMarkOnly?: boolean } = {},
): Promise<Map<string, EvidenceItem[]>> {
  // Keyed by the ids as given; the database answers a uuid in lower case whatever case it was asked in.
  const byEscrow = new Map<string, EvidenceItem[]>(escrowIds.map((id) => [id, []]));
  const given = new Map(escrowIds.map((id) => [id.toLowerCase(), id]));
  if (!escrowIds.length) return byEscrow;
  let query = db
    .selectFrom('payment_evidence as f')
    .innerJoin('payment_marks as m', (j) =>
      j.onRef('m.escrow_id', '=', 'f.escrow_id').onRef('m.mark_position', '=', 'f.mark_position'),
    )
    .select([
      'f.evidence_id',
      'f.escrow_id',
      'f.filename',
      'f.content_type',
      'f.size_bytes',
      'f.sha256',
      'm.notes',
      'm.marked_at',
      'm.status',
    ])
    .where('f.escrow_id', 'in', escrowIds);
  if (options.currentMarkOnly) {
    query = query.innerJoin('payment_mark_current as cur', (j) =>
      j.onRef('cur.escrow_id', '=', 'f.escrow_id').onRef('cur.mark_position', '=', 'f.mark_position'),
    );
  }
  const rows = await query.orderBy('f.mark_position').orderBy('f.evidence_id').execute();
  for (const row of rows) {
    byEscrow.get(given.get(row.escrow_id.toLowerCase()) ?? row.escrow_id)?.push({
      id: row.evidence_id,
      notes: row.notes,
      file_path: evidencePath(row.evidence_id),
      evidence_id: row.evidence_id,
      filename: row.filename,
      content_type: row.content_type,
      size_bytes: Number(row.size_bytes),
      sha256: row.sha256,
      url: evidencePath(row.evidence_id),
      marked_at: row.marked_at.toISOString(),
      mark_status: row.status,
    });
  }
  return byEscrow;
}

/** An escrow's JSON answer with its evidence list added. */
export const withEvidence = (answer: string, evidence: readonly EvidenceItem[]) =>
  `${answer.slice(0, -1)},"evidence":${JSON.stringify(evidence)}}`;
