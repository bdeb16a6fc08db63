import type { Kysely } from 'kysely';
import { fromBase64, toHex } from '../../domain/transparency/merkle.ts';
import type { Database } from '../db/schema.ts';

/**
 * The line that ends each mail about an escrow (contract section 8): the transparency log's latest signed
 * checkpoint, its size and the first 16 hex of its root, so a reader holds a witness of the log as it stood.
 */
export function checkpointLine(checkpoint: { note: string; size: number; root_hash: string }): string {
  const origin = checkpoint.note.slice(0, checkpoint.note.indexOf('\n'));
  const root = toHex(fromBase64(checkpoint.root_hash) ?? new Uint8Array()).slice(0, 16);
  return `Transparency log ${origin}: checkpoint ${checkpoint.size}, root ${root}`;
}

/** The line for the latest checkpoint, or null before the first is signed. */
export async function currentCheckpointLine(db: Kysely<Database>): Promise<string | null> {
  const latest = await db
    .selectFrom('tlog_checkpoints')
    .select(['note', 'size', 'root_hash'])
    .orderBy('size', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest ? checkpointLine({ ...latest, size: Number(latest.size) }) : null;
}
