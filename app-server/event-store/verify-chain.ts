import type { Kysely } from 'kysely';
import { type ChainBreak, ChainVerifier, envelopeOf } from '../../domain/chain.ts';
import type { Database } from '../db/schema.ts';
import { walkLog } from './read.ts';
import { readChainHead } from './chain-head.ts';
import { StoryCheck } from '../../domain/story.ts';

export interface ChainReport {
  ok: boolean;
  /** Events checked by this call (those after `after` when it was given). */
  events: number;
  head: { position: number; hash: string };
  firstBreak: ChainBreak | null;
}

export interface VerifyChainOptions {
  /**
   * A point already verified: only the events after it are checked, linked to its hash. The caller vouches for
   * the events up to it (see audit/chain-watch.ts, which also re-checks that event itself).
   */
  after?: { position: number; hash: string };
  /** Events read per query (5,000). Hashing a page holds the event loop: a server checking itself reads smaller ones. */
  pageSize?: number;
  /**
   * After each page, rest this many times as long as the page took: a server checking its whole log in the
   * background with 1 leaves at least half a core (and the memory a busy walk piles up) to the requests it serves.
   */
  restRatio?: number;
  /**
   * Also check that the story is possible (domain/story.ts): only on a walk from the first event, which sees every
   * escrow from its creation. A log rewritten with every hash recomputed verifies; an impossible one does not.
   */
  story?: boolean;
  /** After each page: events checked so far, and how many there are to check. */
  onProgress?: (checked: number, total: number) => void;
}

/**
 * Recomputes every hash from what is stored and checks each link, then that the recorded chain head is the last
 * event: a changed, removed or reordered event (or a removed tail) names the first bad position.
 *
 * The head is read first and the log walked up to it: the head moves in the statement that inserts the events,
 * so every event up to it has committed, and appends that land during the walk are left for the next check
 * instead of looking like a log that ends early.
 */
export async function verifyChain(db: Kysely<Database>, options: VerifyChainOptions = {}): Promise<ChainReport> {
  const recorded = await readChainHead(db);
  const verifier = new ChainVerifier(options.after);
  const start = verifier.head.position;
  if (recorded.position < start) {
    return {
      ok: false,
      events: 0,
      head: verifier.head,
      firstBreak: {
        position: recorded.position + 1,
        reason: `the chain head records position ${recorded.position}, but the log was verified up to ${start} (events were removed from the end)`,
      },
    };
  }
  const story = options.story && !options.after ? new StoryCheck() : undefined;
  let pageStarted = performance.now();
  for await (const page of walkLog(db, {
    after: start,
    upTo: recorded.position,
    pageSize: options.pageSize ?? 5_000,
  })) {
    for (const event of page) {
      const found = verifier.check(envelopeOf(event), event.prev_hash, event.hash);
      if (found) return { ok: false, events: verifier.count, head: verifier.head, firstBreak: found };
      const impossible = story?.see(event);
      if (impossible)
        return {
          ok: false,
          events: verifier.count,
          head: verifier.head,
          firstBreak: { position: event.position, reason: impossible },
        };
    }
    options.onProgress?.(verifier.count, recorded.position - start);
    if (options.restRatio) {
      await new Promise((resolve) => setTimeout(resolve, (performance.now() - pageStarted) * options.restRatio!));
      pageStarted = performance.now();
    }
  }
  if (recorded.position !== verifier.head.position || recorded.hash !== verifier.head.hash) {
    return {
      ok: false,
      events: verifier.count,
      head: verifier.head,
      firstBreak:
        recorded.position === verifier.head.position
          ? { position: recorded.position, reason: 'the chain head records another hash for the last event' }
          : {
              position: verifier.head.position + 1,
              reason: `the chain head records position ${recorded.position}, but the log ends at ${verifier.head.position} (events were removed from the end)`,
            },
    };
  }
  return { ok: true, events: verifier.count, head: verifier.head, firstBreak: null };
}
