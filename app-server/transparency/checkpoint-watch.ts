import type { Kysely } from 'kysely';
import type { ChainBreak } from '../../domain/chain.ts';
import { eventLeafHash, toBase64, TreeBuilder } from '../../domain/transparency/merkle.ts';
import type { Database } from '../db/schema.ts';
import { storedRoot, treeSize } from './tree.ts';

/** Checkpoints and event hashes read per query on a full walk. */
const PAGE = 5_000;

interface KnownCheckpoint {
  size: number;
  root_hash: string;
}

const rewritten = (size: number, signed: string, found: string, what: string): ChainBreak => ({
  position: size,
  reason: `the signed checkpoint of size ${size} has root ${signed}, ${what} make ${found} (the log was rewritten after it was signed)`,
});

/**
 * The chain watch's check of the log against the checkpoints this server signed: a log rewritten with every hash
 * recomputed still links from its first event, but no longer has the root each earlier checkpoint signed. It also
 * remembers the latest checkpoint it checked, so a rewrite that re-signs the checkpoints too is caught while the
 * process runs (as the chain watch remembers the last event it verified).
 */
export class CheckpointWatch {
  private known: KnownCheckpoint | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Walks the hashes of events 1..`upTo` (a head the chain check just verified) into a tree and compares its root
   * with every signed checkpoint up to there, then the stored tree with it: the first mismatch, or null.
   */
  async full(upTo: number): Promise<ChainBreak | null> {
    const gone = await this.knownStillSigned();
    if (gone) return gone;
    const builder = new TreeBuilder();
    let latest: KnownCheckpoint | null = null;
    let checkpoints: KnownCheckpoint[] = [];
    let checkpointsAfter = 0;
    const nextCheckpoints = async () => {
      const rows = await this.db
        .selectFrom('tlog_checkpoints')
        .select(['size', 'root_hash'])
        .where('size', '>', checkpointsAfter)
        .where('size', '<=', upTo)
        .orderBy('size')
        .limit(PAGE)
        .execute();
      checkpoints = rows.map((r) => ({ size: Number(r.size), root_hash: r.root_hash }));
      if (checkpoints.length) checkpointsAfter = checkpoints.at(-1)!.size;
    };
    await nextCheckpoints();
    while (builder.size < upTo && checkpoints.length) {
      const events = await this.db
        .selectFrom('events')
        .select(['position', 'hash'])
        .where('position', '>', builder.size)
        .where('position', '<=', Math.min(upTo, builder.size + PAGE))
        .orderBy('position')
        .execute();
      if (events.length === 0) break;
      for (const event of events) {
        builder.push(eventLeafHash(event.hash));
        if (checkpoints[0]?.size !== builder.size) continue;
        const checkpoint = checkpoints.shift()!;
        const root = toBase64(builder.root());
        if (root !== checkpoint.root_hash)
          return rewritten(checkpoint.size, checkpoint.root_hash, root, `the log's first ${checkpoint.size} events`);
        latest = checkpoint;
        if (checkpoints.length === 0) await nextCheckpoints();
      }
    }
    if (latest) {
      const stored = await this.storedTreeBreak(latest);
      if (stored) return stored;
      this.remember(latest);
    }
    return null;
  }

  /** Between full walks: the remembered checkpoint is still there, and each one signed since matches the stored tree. */
  async incremental(): Promise<ChainBreak | null> {
    const gone = await this.knownStillSigned();
    if (gone) return gone;
    const rows = await this.db
      .selectFrom('tlog_checkpoints')
      .select(['size', 'root_hash'])
      .where('size', '>', this.known?.size ?? 0)
      .orderBy('size')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const checkpoint = { size: Number(row.size), root_hash: row.root_hash };
      const stored = await this.storedTreeBreak(checkpoint);
      if (stored) return stored;
      this.remember(checkpoint);
    }
    return null;
  }

  /** Forgets the remembered checkpoint (tests empty the database under a live app). */
  forget(): void {
    this.known = null;
  }

  private remember(checkpoint: KnownCheckpoint): void {
    if (!this.known || checkpoint.size >= this.known.size) this.known = checkpoint;
  }

  private async knownStillSigned(): Promise<ChainBreak | null> {
    if (!this.known) return null;
    const { size, root_hash } = this.known;
    const row = await this.db
      .selectFrom('tlog_checkpoints')
      .select('root_hash')
      .where('size', '=', size)
      .executeTakeFirst();
    if (!row)
      return {
        position: size,
        reason: `the checkpoint of size ${size} signed before is gone (the checkpoints were rewritten)`,
      };
    if (row.root_hash !== root_hash)
      return rewritten(size, root_hash, row.root_hash, 'the stored checkpoint now says the same events');
    return null;
  }

  /** The stored Merkle tree (what proofs and tiles are served from) must have the checkpoint's root at its size. */
  private async storedTreeBreak(checkpoint: KnownCheckpoint): Promise<ChainBreak | null> {
    if ((await treeSize(this.db)) < checkpoint.size) {
      return {
        position: checkpoint.size,
        reason: `the stored Merkle tree is smaller than the signed checkpoint of size ${checkpoint.size}`,
      };
    }
    const root = toBase64(await storedRoot(this.db, checkpoint.size));
    return root === checkpoint.root_hash
      ? null
      : rewritten(checkpoint.size, checkpoint.root_hash, root, 'the stored Merkle tree says its first events');
  }
}
