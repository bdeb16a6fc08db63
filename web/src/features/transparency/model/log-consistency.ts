import { fromBase64, toBase64, verifyConsistency } from '../../../../../domain/transparency/merkle.ts';
import { type Checkpoint, verifyCheckpoint } from '../../../../../domain/transparency/note.ts';
import type { SeenCheckpointStore } from './seen-checkpoint.ts';

/** What the browser found comparing the log now with the last checkpoint it saw. */
export type LogConsistency =
  /** The first checkpoint this browser sees of the log: remembered from now on. */
  | { status: 'first'; checkpoint: Checkpoint }
  /** The log now extends the one seen before (proved), or is the same. */
  | { status: 'consistent'; checkpoint: Checkpoint; seenSize: number }
  /** The log's history changed since the browser saw it, or its checkpoint is not signed by its key. */
  | { status: 'rewritten'; checkpoint: Checkpoint | null; seenSize: number | null; reason: string };

export interface LogSources {
  /** The latest signed checkpoint note and the key the log publishes. */
  latest: () => Promise<{ note: string; origin: string; vkey: string }>;
  consistency: (from: number, to: number) => Promise<{ from: number; to: number; proof: string[] }>;
  seen: SeenCheckpointStore;
  now: () => Date;
}

/**
 * The browser's own check of the log (contract section 8, "Catching a rewrite"): the latest checkpoint must verify
 * with the log's key, and extend the last checkpoint this browser saw of that log, by an RFC 9162 consistency proof.
 * A log that passes is remembered at its new size; one that fails is not (the warning stays until it is proved
 * again, or the person chooses to start over).
 */
export async function checkLogConsistency(sources: LogSources): Promise<LogConsistency> {
  const { note, origin, vkey } = await sources.latest();
  const checked = verifyCheckpoint(note, vkey);
  if (!checked.ok)
    return {
      status: 'rewritten',
      checkpoint: null,
      seenSize: null,
      reason: `The latest checkpoint does not verify with the log's key: ${checked.reason}.`,
    };
  const checkpoint = checked.checkpoint;
  if (checkpoint.origin !== origin) {
    return {
      status: 'rewritten',
      checkpoint,
      seenSize: null,
      reason: `The checkpoint names the log ${checkpoint.origin}, not ${origin}.`,
    };
  }
  const seen = sources.seen.get(origin);
  const remember = () =>
    sources.seen.set(origin, {
      size: checkpoint.size,
      root_hash: toBase64(checkpoint.root),
      seen_at: sources.now().toISOString(),
    });
  if (!seen) {
    remember();
    return { status: 'first', checkpoint };
  }
  const rewritten = (reason: string): LogConsistency => ({
    status: 'rewritten',
    checkpoint,
    seenSize: seen.size,
    reason,
  });
  if (checkpoint.size < seen.size) {
    return rewritten(
      `The log now holds ${checkpoint.size} events, but this browser saw it with ${seen.size}: events were removed.`,
    );
  }
  const seenRoot = fromBase64(seen.root_hash)!;
  let proof: Uint8Array[] = [];
  if (checkpoint.size > seen.size) {
    const answer = await sources.consistency(seen.size, checkpoint.size);
    const hashes = answer.proof.map(fromBase64);
    if (answer.from !== seen.size || answer.to !== checkpoint.size || hashes.some((h) => h === null)) {
      return rewritten('The server answered the consistency proof for other sizes than asked.');
    }
    proof = hashes as Uint8Array[];
  }
  if (!verifyConsistency(seen.size, checkpoint.size, seenRoot, checkpoint.root, proof)) {
    return rewritten(
      checkpoint.size === seen.size
        ? `The log's first ${seen.size} events have another root hash than when this browser saw them: the log was rewritten.`
        : `The log of ${checkpoint.size} events does not extend the ${seen.size} events this browser saw: the log was rewritten.`,
    );
  }
  remember();
  return { status: 'consistent', checkpoint, seenSize: seen.size };
}
