import type { Kysely } from 'kysely';
import type { Message } from '../../contract/messages.ts';
import type { Database } from '../db/schema.ts';
import { evidencePath } from '../escrows/evidence-list.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The escrow's conversation as `viewer` reads it, oldest first. The author is the writer's username; an admin is
 * "Admin" to the parties (an admin's sign-in name is not theirs to know), and a writer whose account is gone is
 * named by their side.
 */
export async function messagesOf(
  db: Kysely<Database>,
  escrowId: string,
  viewer: 'buyer' | 'seller' | 'admin',
): Promise<Message[]> {
  const rows = await db
    .selectFrom('escrow_messages')
    .selectAll()
    .where('escrow_id', '=', escrowId)
    .orderBy('position')
    .execute();
  const authorIds = [...new Set(rows.map((r) => r.author_id).filter((id) => UUID.test(id)))];
  const names = new Map<string, string>();
  if (authorIds.length) {
    for (const user of await db.selectFrom('users').select(['id', 'username']).where('id', 'in', authorIds).execute())
      names.set(user.id, user.username);
  }
  return rows.map((row) => ({
    id: row.id,
    side: row.side,
    author: row.side === 'admin' && viewer !== 'admin' ? 'Admin' : (names.get(row.author_id) ?? `The ${row.side}`),
    text: row.text,
    ...(row.file_evidence_id
      ? {
          file: {
            evidence_id: row.file_evidence_id,
            filename: row.file_name ?? '',
            content_type: row.file_content_type ?? '',
            size_bytes: Number(row.file_size_bytes ?? 0),
            sha256: row.file_sha256 ?? '',
            url: evidencePath(row.file_evidence_id),
          },
        }
      : {}),
    created_at: row.created_at.toISOString(),
  }));
}

/** A message attachment's facts as the evidence download serves them, or undefined when no message has that file. */
export const messageFileFacts = async (db: Kysely<Database>, evidenceId: string) => {
  const row = await db
    .selectFrom('escrow_messages')
    .select(['file_evidence_id', 'escrow_id', 'file_name', 'file_content_type', 'file_sha256'])
    .where('file_evidence_id', '=', evidenceId)
    .executeTakeFirst();
  if (!row?.file_evidence_id) return undefined;
  return {
    evidence_id: row.file_evidence_id,
    escrow_id: row.escrow_id,
    filename: row.file_name ?? 'message-file',
    content_type: row.file_content_type ?? 'application/octet-stream',
    sha256: row.file_sha256 ?? '',
  };
};
