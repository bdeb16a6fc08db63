import type { Kysely, Transaction } from 'kysely';
import { ChainVerifier, envelopeOf } from '../../domain/chain.ts';
import { parseEvent } from '../../domain/events.ts';
import { StoryCheck } from '../../domain/story.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { numberedLines, parseObjectLine } from '../audit/ndjson-lines.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { replayProjections } from '../replay.ts';
import { EXPORT_FORMAT } from './export.ts';
import { readChainHead, setChainHead } from './chain-head.ts';
import { extendTree, resetTree } from '../transparency/tree.ts';

/** A line of the file that cannot be imported: nothing of the file was kept. */
export class ImportRefused extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(line ? `line ${line}: ${reason}` : reason);
  }
}

export interface ImportReport {
  events: number;
  head: { position: number; hash: string };
  /** Rows of each read model after the rebuild. */
  tables: { table: string; rows: number }[];
  seconds: number;
}

const BATCH = 500;

/**
 * Loads an export (`export-events`, from position 1) into a store that has no event yet: every line's JSON, event
 * schema, stream version, hash and link is checked as it is read, the events are written in one transaction (a bad
 * line refuses the whole file, naming it), the chain head is set to the last event, and then every read model is
 * rebuilt from the log by the same replay as `replay --swap`. Secrets are not in the log: the restored store has no
 * passwords, second factors, sessions or evidence files.
 */
export interface ImportProgress {
  /** Events read, checked and written so far, of `total` (the header's last position). */
  loaded?: (events: number, total: number) => void;
  /** Events replayed into the read models so far. */
  replayed?: (events: number) => void;
}

export async function importEvents(
  database: Pick<DatabaseHandle, 'db' | 'backend'>,
  path: string,
  options: ImportProgress & { expectHead?: { position: number; hash: string } } = {},
): Promise<ImportReport> {
  const progress = options;
  const started = performance.now();
  const { db } = database;
  const head = await db.transaction().execute(async (trx) => {
    const current = await readChainHead(trx);
    const any = await trx.selectFrom('events').select('position').limit(1).executeTakeFirst();
    if (current.position !== 0 || any) {
      throw new ImportRefused(
        0,
        `the store is not empty (its log holds events up to position ${current.position}); import into a new database or DATA_DIR`,
      );
    }
    // The transparency tree restarts from the imported log (checkpoints of another store do not carry over).
    await resetTree(trx);
    return loadLines(trx, path, options.expectHead, progress.loaded);
  });
  await extendTree(db);
  const report = await replayProjections(database, {
    swap: true,
    swapInOne: true,
    ...(progress.replayed ? { onProgress: progress.replayed } : {}),
  });
  return {
    events: head.position,
    head,
    tables: (report.swapped ?? []).map((t) => ({ table: t.table, rows: t.inserted })),
    seconds: (performance.now() - started) / 1000,
  };
}

async function loadLines(
  trx: Transaction<Database>,
  path: string,
  expectHead?: { position: number; hash: string },
  loaded?: (events: number, total: number) => void,
) {
  const verifier = new ChainVerifier();
  const story = new StoryCheck();
  let expectedSeen = false;
  const streams = new Map<string, { type: string; version: number }>();
  let header:
    { format?: unknown; from?: unknown; to?: unknown; chain_head?: { position?: unknown; hash?: unknown } } | undefined;
  let batch: StoredEvent[] = [];
  let lastLine = 0;
  for await (const { number, text } of numberedLines(path)) {
    lastLine = number;
    if (text.trim() === '') continue;
    const parsed = parseObjectLine(text);
    if ('error' in parsed) throw new ImportRefused(number, parsed.error);
    if (!header) {
      header = parsed.value;
      if (header.format !== EXPORT_FORMAT) throw new ImportRefused(number, `not an export of format ${EXPORT_FORMAT}`);
      if (header.from !== 1)
        throw new ImportRefused(number, 'the export does not start at position 1 (export the whole log to restore it)');
      continue;
    }
    const event = parsed.value as unknown as StoredEvent;
    try {
      parseEvent(event.type, event.data);
    } catch {
      throw new ImportRefused(
        number,
        `event ${String(event.position)} does not match the schema of ${String(event.type)}`,
      );
    }
    const broken = verifier.check(envelopeOf(event), event.prev_hash, event.hash);
    if (broken) throw new ImportRefused(number, `event ${broken.position}: ${broken.reason}`);
    // Hashes recomputed or not, the story must be possible (see domain/story.ts).
    const impossible = story.see(event);
    if (impossible) throw new ImportRefused(number, impossible);
    // A published head is matched wherever its position falls in the file.
    if (expectHead && event.position === expectHead.position) {
      if (event.hash !== expectHead.hash)
        throw new ImportRefused(
          number,
          `event ${expectHead.position} has hash ${event.hash}, not at the published head ${expectHead.position}:${expectHead.hash}`,
        );
      expectedSeen = true;
    }
    const stream = streams.get(event.stream_id);
    if (event.stream_version !== (stream?.version ?? 0) + 1 || (stream && stream.type !== event.stream_type)) {
      throw new ImportRefused(
        number,
        `event ${event.position}: stream ${event.stream_id} is at version ${stream?.version ?? 0}, the event says ${event.stream_version}`,
      );
    }
    streams.set(event.stream_id, { type: event.stream_type, version: event.stream_version });
    batch.push(event);
    if (batch.length >= BATCH) {
      await insertEvents(trx, batch);
      batch = [];
      loaded?.(verifier.count, typeof header.to === 'number' ? header.to : 0);
    }
  }
  if (!header) throw new ImportRefused(1, 'the file is empty');
  await insertEvents(trx, batch);
  loaded?.(verifier.count, typeof header.to === 'number' ? header.to : verifier.count);
  const last = verifier.head;
  if (expectHead && !expectedSeen)
    throw new ImportRefused(
      lastLine,
      `the chain ends at ${last.position}:${last.hash}, before the published head ${expectHead.position}:${expectHead.hash}`,
    );
  if (typeof header.to === 'number' && last.position !== header.to) {
    throw new ImportRefused(
      lastLine + 1,
      `the export ends at event ${last.position}, but its header says it runs to ${header.to} (events are missing from the end)`,
    );
  }
  if (header.chain_head?.position === last.position && header.chain_head.hash !== last.hash) {
    throw new ImportRefused(lastLine, `the last event's hash is not the chain head recorded in the header`);
  }
  // In batches straight from the map: a copy of every stream's row at once was the load's peak (~290,000 streams).
  let rows: { stream_id: string; stream_type: string; version: number }[] = [];
  for (const [stream_id, s] of streams) {
    rows.push({ stream_id, stream_type: s.type, version: s.version });
    if (rows.length === BATCH) {
      await trx.insertInto('streams').values(rows).execute();
      rows = [];
    }
  }
  if (rows.length > 0) await trx.insertInto('streams').values(rows).execute();
  await setChainHead(trx, last);
  return last;
}

function insertEvents(trx: Kysely<Database>, events: StoredEvent[]) {
  if (events.length === 0) return Promise.resolve();
  return trx
    .insertInto('events')
    .values(
      events.map((e) => ({
        position: e.position,
        event_id: e.event_id,
        stream_id: e.stream_id,
        stream_type: e.stream_type,
        stream_version: e.stream_version,
        type: e.type,
        schema_version: e.schema_version,
        data: JSON.stringify(e.data),
        metadata: JSON.stringify(e.metadata),
        occurred_at: e.occurred_at,
        prev_hash: e.prev_hash,
        hash: e.hash,
      })),
    )
    .execute();
}
