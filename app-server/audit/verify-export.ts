import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type ChainEnvelope, ChainVerifier } from '../../domain/chain.ts';
import { parseEvent } from '../../domain/events.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { applyEvents } from '../../projections/apply.ts';
import { MemoryRowStore } from '../../projections/memory-row-store.ts';
import { projections } from '../../projections/registry.ts';
import { EXPORT_FORMAT } from '../event-store/export.ts';

export interface ExportSummary {
  events: number;
  head: { position: number; hash: string };
  escrowsByStatus: Record<string, number>;
  satsHeldInFunded: number;
  satsReleasedToSellers: number;
  satsRefundedToBuyers: number;
  feeSats: number;
}

export class ExportBroken extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/**
 * Checks an NDJSON export offline, with no database: every event's schema, hash and link to the one before, then
 * replays it through the same projections into memory and sums the books. Throws ExportBroken naming the first
 * bad line.
 */
export async function verifyExport(path: string, options: { expectHead?: { position: number; hash: string } } = {}): Promise<ExportSummary> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  const store = new MemoryRowStore(projections.flatMap((p) => p.tables).filter((t) => !t.appendOnly));
  const replayed = projections.filter((p) => !p.tables.every((t) => t.appendOnly));
  let verifier: ChainVerifier | undefined;
  let header: { format?: string; from?: number; to?: number; chain_head?: { position: number; hash: string } } = {};
  let lineNo = 0;
  let batch: StoredEvent[] = [];
  for await (const text of lines) {
    lineNo++;
    if (lineNo === 1) {
      header = safeParse(text, lineNo) as typeof header;
      if (header.format !== EXPORT_FORMAT) throw new ExportBroken(1, `not an export of format ${EXPORT_FORMAT}`);
      if (header.from !== 1) throw new ExportBroken(1, 'the export does not start at position 1, so balances cannot be replayed');
      verifier = new ChainVerifier();
      continue;
    }
    if (text.trim() === '') continue;
    const event = safeParse(text, lineNo) as StoredEvent;
    try {
      parseEvent(event.type, event.data);
    } catch {
      throw new ExportBroken(lineNo, `event ${event.position} does not match the schema of ${event.type}`);
    }
    const envelope: ChainEnvelope = {
      position: event.position,
      event_id: event.event_id,
      stream_id: event.stream_id,
      stream_type: event.stream_type,
      stream_version: event.stream_version,
      type: event.type,
      schema_version: event.schema_version,
      data: event.data,
      metadata: event.metadata,
      occurred_at: event.occurred_at,
    };
    const broken = verifier!.check(envelope, event.prev_hash, event.hash);
    if (broken) throw new ExportBroken(lineNo, broken.reason);
    batch.push(event);
    if (batch.length >= 5_000) {
      await applyEvents(store, replayed, batch);
      batch = [];
    }
  }
  if (!verifier) throw new ExportBroken(1, 'the file is empty');
  await applyEvents(store, replayed, batch);
  const head = verifier.head;
  if (options.expectHead && (options.expectHead.position !== head.position || options.expectHead.hash !== head.hash)) {
    throw new ExportBroken(lineNo, `the chain ends at ${head.position}:${head.hash}, not at the published head ${options.expectHead.position}:${options.expectHead.hash}`);
  }
  // The header was written from the chain head when the export was taken: events missing from the end (removed from
  // the log, or the file cut short) show there even when no published head is at hand.
  if (typeof header.to === 'number' && head.position < header.to) {
    throw new ExportBroken(lineNo + 1, `the export ends at event ${head.position}, but its header says it runs to ${header.to} (events are missing from the end)`);
  }
  const recorded = header.chain_head;
  if (recorded && recorded.position === head.position && recorded.hash !== head.hash) {
    throw new ExportBroken(lineNo, `the last event's hash is not the chain head recorded in the header (${recorded.position}:${recorded.hash})`);
  }
  return summarise(store, verifier.count, head);
}

function safeParse(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ExportBroken(line, 'is not valid JSON');
  }
}

function summarise(store: MemoryRowStore, events: number, head: { position: number; hash: string }): ExportSummary {
  const summary: ExportSummary = { events, head, escrowsByStatus: {}, satsHeldInFunded: 0, satsReleasedToSellers: 0, satsRefundedToBuyers: 0, feeSats: 0 };
  for (const escrow of store.tables.get('escrows')?.values() ?? []) {
    const status = String(escrow.status);
    summary.escrowsByStatus[status] = (summary.escrowsByStatus[status] ?? 0) + 1;
    const holdsMoney = ['funded', 'disputed', 'frozen'].includes(status) && escrow.funded_at !== null;
    if (holdsMoney) summary.satsHeldInFunded += Number(escrow.amount_sats);
    summary.satsReleasedToSellers += Number(escrow.seller_sats ?? 0);
    summary.satsRefundedToBuyers += Number(escrow.buyer_sats ?? 0);
    summary.feeSats += Number(escrow.fee_sats ?? 0);
  }
  return summary;
}
