/**
 * Worker thread of verify-export: reads the export itself and checks every event's hash and link, while the main
 * thread checks schemas and replays the books. Posts one ChainCheckResult; a `{ stopBefore: line }` message makes
 * it give its verdict on the lines before that one only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChainVerifier, envelopeOf } from '../../domain/chain.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { ChainCheckResult } from './chain-check-thread.ts';
import { numberedLines, parseObjectLine } from './ndjson-lines.ts';

const { path } = workerData as { path: string };
let stopBefore = Number.POSITIVE_INFINITY;
parentPort!.on('message', (message: { stopBefore: number }) => {
  stopBefore = Math.min(stopBefore, message.stopBefore);
});

async function checkChain(): Promise<ChainCheckResult> {
  const verifier = new ChainVerifier();
  for await (const { number, text } of numberedLines(path)) {
    if (number >= stopBefore) break;
    if (number === 1 || text.trim() === '') continue; // the header is the main thread's
    const parsed = parseObjectLine(text);
    if ('error' in parsed)
      return { count: verifier.count, head: verifier.head, broken: { line: number, reason: parsed.error } };
    const event = parsed.value as unknown as StoredEvent;
    const broken = verifier.check(envelopeOf(event), event.prev_hash, event.hash);
    if (broken) return { count: verifier.count, head: verifier.head, broken: { line: number, reason: broken.reason } };
  }
  return { count: verifier.count, head: verifier.head };
}

parentPort!.postMessage(await checkChain());
