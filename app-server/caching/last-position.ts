import { sql } from 'kysely';

/**
 * The position of the last event of one stream type (0 before the first), as a scalar subquery: what an answer kept
 * in memory until that type's next event checks on each request (AnswersAtPosition). Written as the newest entry of
 * the (stream_type, position) index, not as max(): the statements that read it are prepared, and a plan made while
 * the statistics knew few events of the type aggregated every one of them on each request (9-20 ms at 2,000-6,000
 * escrow events) until the next ANALYZE. This form reads one index entry whatever the statistics say.
 */
export const lastPositionOf = (streamType: 'escrow' | 'review') =>
  sql<number>`coalesce((SELECT position FROM events WHERE stream_type = ${sql.lit(streamType)} ORDER BY position DESC LIMIT 1), 0)`;
