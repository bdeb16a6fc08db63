import { parseEvent } from '../../domain/events.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { applyEvents } from '../../projections/apply.ts';
import { MemoryRowStore } from '../../projections/memory-row-store.ts';
import { type Books, BooksCalculator, type BooksEvent, type BooksRange } from '../../projections/books/books.ts';
import { projections } from '../../projections/registry.ts';
import { EXPORT_FORMAT } from '../event-store/export.ts';
import { type ChainCheck, startChainCheck } from './chain-check-thread.ts';
import { numberedLineBatches, parseObjectLine } from './ndjson-lines.ts';
import { ProofCollector, type ProofRulesForExport, recheckProofs } from './export-proofs.ts';
import type { CheckpointsAgainstExport } from '../transparency/export-checkpoints.ts';
import { holdsMoney } from '../../domain/escrow/final-statuses.ts';
import { storyCheckOf, storyProblem } from './shared-story.ts';

export interface ExportSummary {
  events: number;
  head: { position: number; hash: string };
  escrowsByStatus: Record<string, number>;
  satsHeldInFunded: number;
  satsReleasedToSellers: number;
  satsRefundedToBuyers: number;
  feeSats: number;
  /** The books of the range asked for (all of the log without one): the figures the console's Overview shows. */
  books: Books;
  /** Payment proofs re-checked (with `withProofs`). */
  proofsChecked?: number;
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
 * bad line. The hashes are checked on a worker thread reading the same file, and the two threads share the story
 * (domain/story.ts) by escrow, so both cores work.
 */
export async function verifyExport(
  path: string,
  options: {
    expectHead?: { position: number; hash: string };
    range?: BooksRange;
    withProofs?: ProofRulesForExport & { path: string };
    checkpoints?: CheckpointsAgainstExport;
  } = {},
): Promise<ExportSummary> {
  const chain = startChainCheck(path);
  try {
    const books = new BooksCalculator(options.range);
    const proofs = options.withProofs ? new ProofCollector() : undefined;
    const marks = options.expectHead ? new HashAt(options.expectHead.position) : undefined;
    const { header, lastLine, store } = await checkSchemasAndReplay(
      path,
      chain,
      books,
      proofs,
      marks,
      options.checkpoints,
    );
    const { head, count, broken } = await chain.result;
    if (broken) throw new ExportBroken(broken.line, broken.reason);
    const checkpointProblem = options.checkpoints?.problem();
    if (checkpointProblem) throw new ExportBroken(lastLine, checkpointProblem);
    // A published head is matched wherever its position falls in the file (the chain vouches for every line's hash).
    const expected = options.expectHead;
    if (expected && marks) {
      if (!marks.found)
        throw new ExportBroken(
          lastLine,
          `the chain ends at ${head.position}:${head.hash}, not at the published head ${expected.position}:${expected.hash} (the export stops before it)`,
        );
      if (marks.found.hash !== expected.hash) {
        throw new ExportBroken(
          marks.found.line,
          `event ${expected.position} has hash ${marks.found.hash}, not at the published head ${expected.position}:${expected.hash}`,
        );
      }
    }
    // The header was written from the chain head when the export was taken: events missing from the end (removed
    // from the log, or the file cut short) show there even when no published head is at hand.
    if (typeof header.to === 'number' && head.position < header.to) {
      throw new ExportBroken(
        lastLine + 1,
        `the export ends at event ${head.position}, but its header says it runs to ${header.to} (events are missing from the end)`,
      );
    }
    const recorded = header.chain_head;
    if (recorded && recorded.position === head.position && recorded.hash !== head.hash) {
      throw new ExportBroken(
        lastLine,
        `the last event's hash is not the chain head recorded in the header (${recorded.position}:${recorded.hash})`,
      );
    }
    if (proofs && options.withProofs) {
      const refused = await recheckProofs(options.withProofs.path, proofs.proven, options.withProofs);
      if (refused) throw new ExportBroken(refused[0], refused[1]);
      return { ...summarise(store, count, head), books: books.result(), proofsChecked: proofs.proven.length };
    }
    return { ...summarise(store, count, head), books: books.result() };
  } finally {
    await chain.terminate();
  }
}

/** A story the escrow machine or the money rules refuse (domain/story.ts), found on the main thread. */
class ImpossibleStory extends ExportBroken {}

interface ExportHeader {
  format?: string;
  from?: number;
  to?: number;
  chain_head?: { position: number; hash: string };
}

/**
 * The main thread's share: the header, every event's JSON and schema, and the replay into memory. A bad line (or a
 * replay that fails) stops it; the chain check then judges the lines before, since a break there comes first.
 */
/** Remembers the hash of the event at one position, and its line. */
export class HashAt {
  found: { hash: string; line: number } | undefined;
  constructor(readonly position: number) {}
  see(event: { position: number; hash: string }, line: number) {
    if (event.position === this.position) this.found = { hash: event.hash, line };
  }
}

async function checkSchemasAndReplay(
  path: string,
  chain: ChainCheck,
  books: BooksCalculator,
  proofs?: ProofCollector,
  marks?: HashAt,
  checkpoints?: CheckpointsAgainstExport,
) {
  const store = new MemoryRowStore(projections.flatMap((p) => p.tables).filter((t) => !t.appendOnly));
  const replayed = projections.filter((p) => !p.tables.every((t) => t.appendOnly));
  const story = storyCheckOf('main');
  let header: ExportHeader | undefined;
  let lastLine = 0;
  let batch: StoredEvent[] = [];
  try {
    for await (const lines of numberedLineBatches(path)) {
      for (const { number, text } of lines) {
        lastLine = number;
        if (number === 1) {
          header = safeParse(text, number) as ExportHeader;
          if (header.format !== EXPORT_FORMAT) throw new ExportBroken(1, `not an export of format ${EXPORT_FORMAT}`);
          if (header.from !== 1)
            throw new ExportBroken(1, 'the export does not start at position 1, so balances cannot be replayed');
          continue;
        }
        if (text.trim() === '') continue;
        const event = safeParse(text, number) as unknown as StoredEvent;
        try {
          parseEvent(event.type, event.data);
        } catch {
          throw new ExportBroken(number, `event ${event.position} does not match the schema of ${event.type}`);
        }
        const impossible = storyProblem(story, event);
        if (impossible) throw new ImpossibleStory(number, impossible);
        proofs?.see(event, number);
        marks?.see(event, number);
        batch.push(event);
        books.add(event as BooksEvent);
        checkpoints?.push(event);
        if (batch.length >= REPLAY_BATCH) {
          await applyEvents(store, replayed, batch);
          batch = [];
        }
      }
    }
    if (!header) throw new ExportBroken(1, 'the file is empty');
    await applyEvents(store, replayed, batch);
  } catch (error) {
    // A removed or reordered event can also trip the replay, on a line at or after the chain's break. The worker
    // judges a line's hash before its story, so a story refused here yields to a break on its own line too.
    const line = error instanceof ExportBroken ? error.line : lastLine + 1;
    const judged = error instanceof ImpossibleStory ? line + 1 : line;
    chain.stopBefore(judged);
    const earlier = (await chain.result).broken;
    throw earlier && earlier.line < judged ? new ExportBroken(earlier.line, earlier.reason) : error;
  }
  return { header, lastLine, store };
}

/**
 * Events replayed at a time: small enough that they die young instead of being promoted by the collector (100 was
 * about a tenth faster than 500 on a million-event export; 20 no faster).
 */
const REPLAY_BATCH = 100;

function safeParse(text: string, line: number): Record<string, unknown> {
  const parsed = parseObjectLine(text);
  if ('error' in parsed) throw new ExportBroken(line, parsed.error);
  return parsed.value;
}

function summarise(
  store: MemoryRowStore,
  events: number,
  head: { position: number; hash: string },
): Omit<ExportSummary, 'books'> {
  const summary: Omit<ExportSummary, 'books'> = {
    events,
    head,
    escrowsByStatus: {},
    satsHeldInFunded: 0,
    satsReleasedToSellers: 0,
    satsRefundedToBuyers: 0,
    feeSats: 0,
  };
  for (const escrow of store.tables.get('escrows')?.values() ?? []) {
    const status = String(escrow.status);
    summary.escrowsByStatus[status] = (summary.escrowsByStatus[status] ?? 0) + 1;
    if (holdsMoney({ status, funded_at: escrow.funded_at })) summary.satsHeldInFunded += Number(escrow.amount_sats);
    summary.satsReleasedToSellers += Number(escrow.seller_sats ?? 0);
    summary.satsRefundedToBuyers += Number(escrow.buyer_sats ?? 0);
    summary.feeSats += Number(escrow.fee_sats ?? 0);
  }
  return summary;
}
