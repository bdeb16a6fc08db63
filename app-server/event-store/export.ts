import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { chainHead, walkLog } from './read.ts';

export const EXPORT_FORMAT = 'escrow-events/1';

/**
 * Streams the log as NDJSON: a header line (format, position range, chain head), then one line per event with
 * everything needed to check its hash offline. Keyset pages keep memory constant whatever the size. The log
 * holds no secrets, so neither does the export.
 */
export async function exportEvents(
  db: Kysely<Database>,
  write: (line: string) => void | Promise<void>,
  range: { from?: number; to?: number } = {},
): Promise<{ events: number; last: number }> {
  const head = await chainHead(db);
  const to = Math.min(range.to ?? head.position, head.position);
  const from = Math.max(range.from ?? 1, 1);
  await write(`${JSON.stringify({ format: EXPORT_FORMAT, from, to, chain_head: head })}\n`);
  let events = 0;
  let last = from - 1;
  for await (const page of walkLog(db, { after: from - 1, upTo: to, pageSize: 2_000 })) {
    let chunk = '';
    for (const e of page) {
      chunk += `${JSON.stringify({
        position: e.position,
        event_id: e.event_id,
        stream_id: e.stream_id,
        stream_type: e.stream_type,
        stream_version: e.stream_version,
        type: e.type,
        schema_version: e.schema_version,
        data: e.data,
        metadata: e.metadata,
        occurred_at: e.occurred_at,
        prev_hash: e.prev_hash,
        hash: e.hash,
      })}\n`;
      last = e.position;
    }
    events += page.length;
    await write(chunk);
  }
  return { events, last };
}
