import type { Kysely } from 'kysely';
import { type ChainBreak, ChainVerifier } from '../../domain/chain.ts';
import type { Database } from '../db/schema.ts';
import { chainHead, envelopeOf, walkLog } from './read.ts';

export interface ChainReport {
  ok: boolean;
  events: number;
  head: { position: number; hash: string };
  firstBreak: ChainBreak | null;
}

/**
 * Recomputes every hash from what is stored and checks each link, then that the recorded chain head is the last
 * event: a changed, removed or reordered event (or a removed tail) names the first bad position.
 */
export async function verifyChain(db: Kysely<Database>): Promise<ChainReport> {
  const verifier = new ChainVerifier();
  for await (const page of walkLog(db, { pageSize: 5_000 })) {
    for (const event of page) {
      const found = verifier.check(envelopeOf(event), event.prev_hash, event.hash);
      if (found) return { ok: false, events: verifier.count, head: verifier.head, firstBreak: found };
    }
  }
  const recorded = await chainHead(db);
  if (recorded.position !== verifier.head.position || recorded.hash !== verifier.head.hash) {
    return {
      ok: false,
      events: verifier.count,
      head: verifier.head,
      firstBreak: {
        position: verifier.head.position + 1,
        reason: `the chain head records position ${recorded.position}, but the log ends at ${verifier.head.position} (events were removed from the end)`,
      },
    };
  }
  return { ok: true, events: verifier.count, head: verifier.head, firstBreak: null };
}
