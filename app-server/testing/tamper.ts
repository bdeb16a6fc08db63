import { type Kysely, sql, type Transaction } from 'kysely';
import { chainHash, envelopeOf } from '../../domain/chain.ts';
import type { Database } from '../db/schema.ts';
import { readLog } from '../event-store/read.ts';
import { extendTree } from '../transparency/tree.ts';

/**
 * Changes the database behind the app's back in one transaction, as an attacker with the table owner's rights
 * could: `events` refuses UPDATE and DELETE (migration 0009), so the attacker first switches that trigger off,
 * and on again before committing. Tests of tamper detection go through here (or `allowEventTampering`).
 */
export async function tamperWith<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`ALTER TABLE events DISABLE TRIGGER events_append_only`.execute(trx);
    const result = await work(trx);
    await sql`ALTER TABLE events ENABLE TRIGGER events_append_only`.execute(trx);
    return result;
  });
}

/**
 * For a test file that tampers with `events` throughout: switches the append-only trigger off for its whole
 * database, as an attacker with the owner's rights could. Only tests of tamper detection call this.
 */
export async function allowEventTampering(db: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE events DISABLE TRIGGER events_append_only`.execute(db);
}

/**
 * A careful forger's rewrite: changes the metadata of event `position` (its request id: any field would do), then
 * recomputes the hash of every event from there on and the chain head, so the chain verifies from the first event
 * again. With `tree`, also rebuilds the transparency tree from the rewritten log (as an operator with the database
 * would, for proofs to match it); the checkpoints signed before stay as they were. Returns the new head.
 */
export async function rewriteLogFrom(
  db: Kysely<Database>,
  position: number,
  options: { tree?: boolean } = {},
): Promise<{ position: number; hash: string }> {
  const head = await tamperWith(db, async (trx) => {
    await sql`UPDATE events SET metadata = jsonb_set(metadata, '{request_id}', '"rewritten"') WHERE position = ${position}`.execute(
      trx,
    );
    let prev = (await readLog(trx, { after: position - 1, limit: 1 }))[0]!.prev_hash;
    let last = { position: position - 1, hash: prev };
    for (let after = position - 1; ;) {
      const events = await readLog(trx, { after, limit: 1_000 });
      if (events.length === 0) break;
      for (const event of events) {
        const hash = chainHash(prev, envelopeOf({ ...event, prev_hash: prev }));
        await sql`UPDATE events SET prev_hash = ${prev}, hash = ${hash} WHERE position = ${event.position}`.execute(
          trx,
        );
        prev = hash;
        last = { position: event.position, hash };
      }
      after = events.at(-1)!.position;
    }
    await sql`UPDATE chain_head SET hash = ${last.hash} WHERE id = 1`.execute(trx);
    return last;
  });
  if (options.tree) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tlog_nodes').execute();
      await trx.updateTable('tlog_state').set({ size: 0 }).where('id', '=', 1).execute();
    });
    await extendTree(db);
  }
  return head;
}
