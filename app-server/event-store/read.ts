import { type Kysely, sql } from 'kysely';
import type { DomainEvent } from '../../domain/events.ts';
import type { EventMetadata, StoredEvent } from '../../domain/stored-event.ts';
import type { ProjectedEvent } from '../../projections/projection.ts';
import type { Database } from '../db/schema.ts';

type EventRow = Database['events'] extends infer T ? { [K in keyof T]: unknown } : never;

/** Turns a row of `events` (read with `eventColumns`) into a StoredEvent, whichever driver read it. */
function toStoredEvent(row: Omit<EventRow, 'transaction_id'>): StoredEvent {
  return {
    position: Number(row.position),
    event_id: String(row.event_id),
    stream_id: String(row.stream_id),
    stream_type: String(row.stream_type),
    stream_version: Number(row.stream_version),
    type: row.type as DomainEvent['type'],
    schema_version: Number(row.schema_version),
    data: row.data as DomainEvent['data'],
    metadata: row.metadata as EventMetadata,
    occurred_at: String(row.occurred_at),
    prev_hash: String(row.prev_hash),
    hash: String(row.hash),
  } as StoredEvent;
}

/**
 * `occurred_at` as the application writes it (ISO 8601 in UTC, milliseconds, Z), formatted by the database: the
 * hash covers this text, and parsing a timestamp into a Date only to format it again was a tenth of a replay.
 */
export const occurredAtIso = () =>
  sql<string>`to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const eventColumns = [
  'position',
  'event_id',
  'stream_id',
  'stream_type',
  'stream_version',
  'type',
  'schema_version',
  'data',
  'metadata',
  occurredAtIso().as('occurred_at'),
  'prev_hash',
  'hash',
] as const;

/** The events of one stream in version order, and the stream's version (0 when it does not exist). */
export async function readStream(
  db: Kysely<Database>,
  streamId: string,
): Promise<{ version: number; events: StoredEvent[] }> {
  const rows = await db
    .selectFrom('events')
    .select(eventColumns)
    .where('stream_id', '=', streamId)
    .orderBy('stream_version')
    .execute();
  const events = rows.map(toStoredEvent);
  return { version: events.at(-1)?.stream_version ?? 0, events };
}

export interface ReadLogOptions {
  /** Exclusive lower bound. */
  after?: number;
  /** Inclusive upper bound. */
  upTo?: number;
  limit?: number;
  streamId?: string;
  streamType?: string;
  types?: readonly string[];
}

/**
 * One page of the log in position order. Positions are handed out under the chain lock, in commit order, so a
 * reader that continues from the last position it saw never skips an event that committed late.
 */
export async function readLog(db: Kysely<Database>, options: ReadLogOptions = {}): Promise<StoredEvent[]> {
  let query = db
    .selectFrom('events')
    .select(eventColumns)
    .where('position', '>', options.after ?? 0)
    .orderBy('position')
    .limit(options.limit ?? 1_000);
  if (options.upTo !== undefined) query = query.where('position', '<=', options.upTo);
  if (options.streamId) query = query.where('stream_id', '=', options.streamId);
  if (options.streamType) query = query.where('stream_type', '=', options.streamType);
  if (options.types?.length) query = query.where('type', 'in', options.types as string[]);
  return (await query.execute()).map(toStoredEvent);
}

/** Every event from `after` on, page by page with constant memory. */
export async function* walkLog(
  db: Kysely<Database>,
  options: Omit<ReadLogOptions, 'limit'> & { pageSize?: number } = {},
): AsyncGenerator<StoredEvent[]> {
  let after = options.after ?? 0;
  for (;;) {
    const page = await readLog(db, { ...options, after, limit: options.pageSize ?? 2_000 });
    if (page.length === 0) return;
    yield page;
    after = page.at(-1)!.position;
  }
}

/**
 * Every event as projections see it (ProjectedEvent: seven of its twelve columns, no ids or hashes to convert),
 * page by page: what a replay reads.
 */
export async function* walkLogForProjections(db: Kysely<Database>, pageSize: number): AsyncGenerator<ProjectedEvent[]> {
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom('events')
      .select(['position', 'stream_id', 'stream_type', 'type', 'data', 'metadata', occurredAtIso().as('occurred_at')])
      .where('position', '>', after)
      .orderBy('position')
      .limit(pageSize)
      .execute();
    if (page.length === 0) return;
    yield page as unknown as ProjectedEvent[];
    after = Number(page.at(-1)!.position);
  }
}
