import type { Kysely } from 'kysely';
import { executePrepared } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { AnswersAtPosition } from '../caching/answers-at-position.ts';
import { lastPositionOf } from '../caching/last-position.ts';

/**
 * The public reviews page (list, statistics, countries) is the same for every visitor and changes only when a
 * review event is appended, by this process or another: each request reads the position of the last review event
 * (one index probe) and is answered from memory while it has not moved.
 */
export class PublicReviewsCache {
  private readonly answers = new AnswersAtPosition();

  constructor(private readonly db: Kysely<Database>) {}

  async answer(key: string, compute: () => Promise<string>): Promise<Buffer<ArrayBuffer>> {
    return this.answers.answer(await lastReviewEvent(this.db), key, compute);
  }
}

async function lastReviewEvent(db: Kysely<Database>): Promise<number> {
  const [row] = await executePrepared(db, db.selectNoFrom(lastPositionOf('review').as('position')));
  return Number(row?.position ?? 0);
}
