import { StoryCheck } from '../../domain/story.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';

/**
 * verify-export's two threads share the story check (domain/story.ts) by escrow, so that neither core waits for the
 * other: the worker also hashes every event, the main thread also replays the books, and the story is the one part
 * that splits. Seven escrows in sixteen are the main thread's: on a million-event export that share kept both
 * threads about equally busy once the worker's young generation was sized for it (chain-check-thread.ts); 6 and 8
 * were a few percent slower, 11 (the share before) a fifth slower. Each thread follows every user, since an admin's
 * act is judged against them.
 */
const MAIN_THREAD_SIXTEENTHS = 7;

type Thread = 'main' | 'worker';

export function storyCheckOf(thread: Thread): StoryCheck {
  return new StoryCheck((escrowId) => storyThreadOf(escrowId) === thread);
}

/** From a hash of the whole id, so that any id (a tampered export's too) falls to exactly one thread. */
export function storyThreadOf(escrowId: string): Thread {
  let hash = 0;
  for (let i = 0; i < escrowId.length; i++) hash = (Math.imul(hash, 31) + escrowId.charCodeAt(i)) | 0;
  return (hash >>> 0) % 16 < MAIN_THREAD_SIXTEENTHS ? 'main' : 'worker';
}

/**
 * The story's verdict on one event. An event whose data is not even the shape the story reads is a schema error
 * (the main thread checks schemas, and names that line so).
 */
export function storyProblem(story: StoryCheck, event: StoredEvent): string | null {
  try {
    return story.see(event);
  } catch {
    return `event ${event.position} does not match the schema of ${event.type}`;
  }
}
