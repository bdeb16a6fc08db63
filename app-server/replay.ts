import type { Kysely, Transaction } from 'kysely';
import { projections } from '../projections/registry.ts';
import { type ReplayReport, replayAndCompare } from '../projections/replay.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Database } from './db/schema.ts';
import { lockChainHead, readChainHead } from './event-store/chain-head.ts';
import { occurredAtIso, walkLogForProjections } from './event-store/read.ts';
import type { ProjectedEvent } from '../projections/projection.ts';

/**
 * Rebuilds every read model from the log into scratch tables and compares them with the live ones. With `swap`,
 * the rows that differ are then rewritten in small steps, each a short transaction under the chain-head lock appends
 * take, which first brings the rebuild up to the events appended meanwhile: appends wait for one step (a few
 * milliseconds), never for the rebuild. With `swapInOne` the same transaction takes the lock first and replaces
 * every row (an import into a new store, where nothing else writes). On PostgreSQL a comparison reads on a second
 * connection sharing the transaction's snapshot.
 */
export function replayProjections(
  database: Pick<DatabaseHandle, 'db' | 'backend'>,
  options: {
    swap?: boolean;
    /** With swap: the whole swap in the rebuild's transaction, under the lock (an import into a new store). */
    swapInOne?: boolean;
    onProgress?: (events: number) => void;
    /** Rows of the read models held in memory (tests make it small to exercise the scratch tables). */
    rowsInMemory?: number;
    /** With swap (in steps): rows rewritten so far of every differing one. */
    onSwapProgress?: (rewritten: number, total: number) => void;
  } = {},
): Promise<ReplayReport> {
  const { onProgress } = options;
  return replayAndCompare(
    database.db,
    projections,
    (reader) =>
      onProgress
        ? counted(walkLogForProjections(reader as Kysely<Database>, 5_000), onProgress)
        : walkLogForProjections(reader as Kysely<Database>, 5_000),
    {
      secondConnection: database.backend === 'postgres',
      ...(options.rowsInMemory ? { rowsInMemory: options.rowsInMemory } : {}),
      ...(options.onSwapProgress ? { onSwapProgress: options.onSwapProgress } : {}),
      ...(options.swap
        ? {
            swap: {
              lock: (trx) => lockChainHead(trx as unknown as Transaction<Database>).then(() => undefined),
              ...(options.swapInOne
                ? {}
                : {
                    steps: {
                      position: async (trx) => (await readChainHead(trx as unknown as Kysely<Database>)).position,
                      eventsAfter: (trx, position) => eventsAfter(trx as unknown as Kysely<Database>, position),
                    },
                  }),
            },
          }
        : {}),
    },
  );
}

/** Every event after `position`, as projections see it: what a stepwise swap applies to its rebuild before a step. */
async function eventsAfter(db: Kysely<Database>, position: number): Promise<ProjectedEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['position', 'stream_id', 'stream_type', 'type', 'data', 'metadata', occurredAtIso().as('occurred_at')])
    .where('position', '>', position)
    .orderBy('position')
    .execute();
  return rows as unknown as ProjectedEvent[];
}

/** The pages of `pages`, reporting the events handed out so far after each. */
async function* counted<T>(
  pages: AsyncIterable<readonly T[]>,
  onProgress: (events: number) => void,
): AsyncGenerator<readonly T[]> {
  let events = 0;
  for await (const page of pages) {
    yield page;
    events += page.length;
    onProgress(events);
  }
}

/** The report as lines a person reads: totals, each table's counts, and `match` or the first differences. */
export function formatReplayReport(report: ReplayReport): string {
  const lines = [
    `events replayed: ${report.events}`,
    `seconds: ${report.seconds.toFixed(2)}`,
    `events/s: ${Math.round(report.eventsPerSecond)}`,
  ];
  for (const t of report.tables) {
    lines.push(`  ${t.table}: live ${t.liveRows}, rebuilt ${t.rebuiltRows}${t.match ? '' : '  DIFFERS'}`);
    for (const row of t.onlyLive) lines.push(`    only in live:    ${JSON.stringify(row)}`);
    for (const row of t.onlyRebuilt) lines.push(`    only in rebuilt: ${JSON.stringify(row)}`);
  }
  lines.push(report.match ? 'match' : 'MISMATCH');
  if (report.swapped) {
    lines.push('swapped: the live read models now hold the rebuilt rows');
    for (const s of report.swapped) lines.push(`  ${s.table}: deleted ${s.deleted}, inserted ${s.inserted}`);
  }
  return lines.join('\n');
}
