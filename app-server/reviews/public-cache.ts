import { type Kysely, sql } from 'kysely';
import { executePrepared } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** Distinct answers kept (filters x sorts x pages); the oldest goes first. A page of 20 is about 5 KB. */
const MAX_ANSWERS = 500;

/**
 * The public reviews page (list, statistics, countries) is the same for every visitor and changes only when a
 * review event is appended, by this process or another. Each request reads the position of the last review event
 * (one index probe) and is answered from memory while it has not moved: always as fresh as the database, without
 * running the page's query again. An answer computed after reading the position is at least that fresh, so it is
 * kept under that position; one computed while the position moved on is returned but not kept.
 */
export class PublicReviewsCache {
  private position: number | null | undefined;
  private readonly answers = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  async answer(key: string, compute: () => Promise<string>): Promise<string> {
    const position = await lastReviewEvent(this.db);
    if (position !== this.position) {
      this.answers.clear();
      this.position = position;
    }
    const kept = this.answers.get(key);
    if (kept !== undefined) return kept;
    const fresh = await compute();
    if (this.position === position) {
      if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(key, fresh);
    }
    return fresh;
  }
}

async function lastReviewEvent(db: Kysely<Database>): Promise<number | null> {
  const [row] = await executePrepared(
    db,
    db.selectFrom('events').select(sql<number | null>`max(position)`.as('position')).where('stream_type', '=', 'review'),
  );
  return row?.position ?? null;
}
