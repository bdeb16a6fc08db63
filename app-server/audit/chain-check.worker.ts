/**
 * Worker thread of verify-export: reads the export itself and checks every event's hash and link, and that the
 * story it tells is possible (domain/story.ts), while the main thread checks schemas and replays the books. Posts
 * one ChainCheckResult; a `{ stopBefore: line }` message makes it give its verdict on the lines before that one only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChainVerifier, envelopeOf } from '../../domain/chain.ts';
import { StoryCheck } from '../../domain/story.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { ChainCheckResult } from './chain-check-thread.ts';
import { numberedLineBatches, parseObjectLine } from './ndjson-lines.ts';

const { path } = workerData as { path: string };
let stopBefore = Number.POSITIVE_INFINITY;
parentPort!.on('message', (message: { stopBefore: number }) => {
  stopBefore = Math.min(stopBefore, message.stopBefore);
});

async function checkChain(): Promise<ChainCheckResult> {
  const verifier = new ChainVerifier();
  const story = new StoryCheck();
  for await (const lines of numberedLineBatches(path)) {
    for (const { number, text } of lines) {
      if (number >= stopBefore) return { count: verifier.count, head: verifier.head };
      if (number === 1 || text.trim() === '') continue; // the header is the main thread's
      const parsed = parseObjectLine(text);
      if ('error' in parsed)
        return { count: verifier.count, head: verifier.head, broken: { line: number, reason: parsed.error } };
      const event = parsed.value as unknown as StoredEvent;
      const broken = verifier.check(envelopeOf(event), event.prev_hash, event.hash);
      if (broken)
        return { count: verifier.count, head: verifier.head, broken: { line: number, reason: broken.reason } };
      const impossible = storyProblem(story, event);
      if (impossible)
        return { count: verifier.count, head: verifier.head, broken: { line: number, reason: impossible } };
    }
  }
  return { count: verifier.count, head: verifier.head };
}

/**
 * The story's verdict on one event. The main thread checks the event's schema; an event whose data is not even the
 * shape the story reads is left to it (same line: its schema error is the one reported).
 */
function storyProblem(story: StoryCheck, event: StoredEvent): string | null {
  try {
    return story.see(event);
  } catch {
    return `event ${event.position} does not match the schema of ${event.type}`;
  }
}

parentPort!.postMessage(await checkChain());
