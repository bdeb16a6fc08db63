import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { exportChunks } from '../event-store/export.ts';
import { readLog } from '../event-store/read.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import type { ChainWatch } from './chain-watch.ts';

/** The log itself, as the admin ledger reads it: events by position, the chain's state, the NDJSON export. */

/** One page of the raw log by position, filtered by stream, stream type or event type. */
export const ledgerEvents = (
  db: Kysely<Database>,
  q: {
    after: number;
    limit: number;
    stream_id?: string | undefined;
    stream_type?: string | undefined;
    type?: string | undefined;
  },
) =>
  readLog(db, {
    after: q.after,
    limit: q.limit,
    ...(q.stream_id ? { streamId: q.stream_id } : {}),
    ...(q.stream_type ? { streamType: q.stream_type } : {}),
    ...(q.type ? { types: [q.type] } : {}),
  });

/**
 * The chain head, whether the whole chain verifies now, and the server's own check. A full check on demand: through
 * the watch when there is one, so a break found here is logged and flagged too.
 */
export async function chainStatus(db: Kysely<Database>, watch: ChainWatch | undefined) {
  const [head, report] = await Promise.all([readChainHead(db), watch ? watch.verifyFully() : verifyChain(db)]);
  const watched = watch?.state();
  return {
    head,
    ok: report.ok,
    events: report.events,
    first_break: report.firstBreak,
    verified_up_to: watched ? watched.verifiedUpTo : report.ok ? report.head.position : report.firstBreak!.position - 1,
    broken: watched ? watched.broken : report.firstBreak,
    last_check_at: watched?.lastCheckAt ?? null,
    last_full_check_at: watched?.lastFullCheckAt ?? null,
  };
}

/** The log as NDJSON pieces, read from the database one piece at a time as they are taken. */
export const ledgerExport = (db: Kysely<Database>, range: { from?: number; to?: number }) => exportChunks(db, range);
