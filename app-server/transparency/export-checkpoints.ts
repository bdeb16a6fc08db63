import { eventLeafHash, toBase64, TreeBuilder } from '../../domain/transparency/merkle.ts';
import {
  type Checkpoint,
  openNote,
  parseCheckpointText,
  parseVerifierKey,
  splitNotes,
} from '../../domain/transparency/note.ts';

/**
 * Checks signed checkpoints against an export's own tree (verify-export --checkpoint): each note must be signed by a
 * key the file's log names (LogKeyIntroduced / LogKeyRotated) or by `vkey` when given, and its root must be the root
 * of the file's first `size` events. A log rewritten with every hash recomputed has another root at that size.
 */
export class CheckpointsAgainstExport {
  private readonly tree = new TreeBuilder();
  private readonly wanted: { checkpoint: Checkpoint | null; note: string; root?: string }[];
  private readonly keys = new Set<string>();

  constructor(
    text: string,
    private readonly vkey?: string,
  ) {
    this.wanted = splitNotes(text).map((note) => ({
      note,
      checkpoint: parseCheckpointText(note.slice(0, note.lastIndexOf('\n\n') + 1)),
    }));
    if (vkey) this.keys.add(vkey);
  }

  get count(): number {
    return this.wanted.length;
  }

  /** Each event of the file in order. */
  push(event: { type: string; hash: string; data: unknown }): void {
    if (!this.vkey && (event.type === 'LogKeyIntroduced' || event.type === 'LogKeyRotated'))
      this.keys.add(String((event.data as { vkey?: unknown }).vkey));
    this.tree.push(eventLeafHash(event.hash));
    const size = this.tree.size;
    for (const w of this.wanted) if (w.checkpoint?.size === size) w.root = toBase64(this.tree.root());
  }

  /** The first problem found, or null when every checkpoint is signed and matches the file. */
  problem(): string | null {
    if (this.wanted.length === 0) return 'the checkpoint file holds no signed note';
    for (const w of this.wanted) {
      if (!w.checkpoint) return 'a note in the checkpoint file is not a checkpoint (origin, size, root hash)';
      const signed = [...this.keys].some((k) => {
        const verifier = parseVerifierKey(k);
        return verifier !== null && openNote(w.note, verifier).ok;
      });
      if (!signed)
        return `the checkpoint of size ${w.checkpoint.size} is not signed by ${this.vkey ? 'the given key' : "a key the export's log names"}`;
      if (w.root === undefined)
        return `the checkpoint of size ${w.checkpoint.size} is beyond the export's ${this.tree.size} events (events are missing)`;
      if (w.root !== toBase64(w.checkpoint.root)) {
        return `the checkpoint of size ${w.checkpoint.size} has root ${toBase64(w.checkpoint.root)}, the export's first ${w.checkpoint.size} events make ${w.root}: the log was rewritten`;
      }
    }
    return null;
  }
}
