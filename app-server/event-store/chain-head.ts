import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The last event's position and hash: what the next event chains to (position 0 and 64 zeros for an empty log). */
export interface ChainHead {
  position: number;
  hash: string;
}

/** The head as committed now (a plain read: appends may move it right after). */
export async function readChainHead(db: Kysely<Database>): Promise<ChainHead> {
  const head = await db
    .selectFrom('chain_head')
    .select(['position', 'hash'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { position: Number(head.position), hash: head.hash };
}

/**
 * Takes the one-row `chain_head` lock (FOR UPDATE) and returns the head. Every append takes it first, so whoever
 * holds it until commit keeps every writer of the log, and so of the read models, out; plain reads go on.
 */
export async function lockChainHead(trx: Transaction<Database>): Promise<ChainHead> {
  const head = await trx
    .selectFrom('chain_head')
    .select(['position', 'hash'])
    .where('id', '=', 1)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { position: Number(head.position), hash: head.hash };
}

/** Moves the head to the last imported event (an import writes the log without appending). */
export async function setChainHead(trx: Transaction<Database>, head: ChainHead): Promise<void> {
  await trx.updateTable('chain_head').set({ position: head.position, hash: head.hash }).where('id', '=', 1).execute();
}
