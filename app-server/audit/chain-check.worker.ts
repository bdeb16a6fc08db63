/**
 * Worker thread of verify-export: reads the export itself and checks every event's hash and link, and that the
 * story it tells is possible for its share of the escrows (shared-story.ts), while the main thread checks schemas,
 * the other escrows' story and replays the books. Posts one ChainCheckResult; a `{ stopBefore: line }` message makes
 * it give its verdict on the lines before that one only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChainVerifier, envelopeOf } from '../../domain/chain.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { ChainCheckResult } from './chain-check-thread.ts';
import { numberedLineBatches, parseObjectLine } from './ndjson-lines.ts';
import { storyCheckOf, storyProblem } from './shared-story.ts';

const { path } = workerData as { path: string };
let stopBefore = Number.POSITIVE_INFINITY;
parentPort!.on('message', (message: { stopBefore: number }) => {
  stopBefore = Math.min(stopBefore, message.stopBefore);
});

async function checkChain(): Promise<ChainCheckResult> {
  const verifier = new ChainVerifier();
  const story = storyCheckOf('worker');
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

parentPort!.postMessage(await checkChain());
