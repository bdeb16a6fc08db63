import { sql } from 'kysely';
import { applyEvents } from './apply.ts';
import type { DynamicDb, DynamicTransaction } from './dynamic-db.ts';
import { normaliseRow } from './normalise-row.ts';
import type { ProjectedEvent, Projection, Row, TableSpec } from './projection.ts';
import { type FingerprintPlan, fingerprintPlan, type RowsFingerprint } from './row-fingerprint.ts';
import { deleteByKeys, insertStatements } from './scratch-statements.ts';
import { type SpillTarget, SpillingRowStore } from './spilling-row-store.ts';

export interface TableComparison {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  /** Rows in the live table that the rebuild does not have (first few). */
  onlyLive: Row[];
  /** Rows the rebuild has that the live table does not (first few). */
  onlyRebuilt: Row[];
  match: boolean;
  /** The table differs, but was compared by fingerprint, so the rows above are not known (replay runs again). */
  unsampled?: boolean;
}

export interface SwappedTable {
  table: string;
  /** Live rows removed. */
  deleted: number;
  /** Rebuilt rows put in their place. */
  inserted: number;
}

export interface ReplayReport {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Whether the live tables equalled the rebuild (before any swap). */
  match: boolean;
  tables: TableComparison[];
  /** Present when the rebuilt rows replaced the live ones: each table and its row counts. */
  swapped?: SwappedTable[];
}

export interface ReplayOptions {
  sampleSize?: number;
  /**
   * Replace the live tables' contents with the rebuilt rows, in the same transaction. `lock` runs first and must
   * stop every writer of the log and the read models until commit (the event store's chain-head row lock).
   */
  swap?: {
    lock: (trx: DynamicTransaction) => Promise<void>;
    /**
     * Swap in small steps instead of in the rebuild's transaction: the rebuild and the comparison run without the
     * lock, then only the rows that differ are rewritten, a batch per short transaction that takes `lock`, first
     * applies to the rebuild the events appended since (`eventsAfter`) and then writes the batch. Appends wait for
     * one batch at most, never for the whole rebuild. Needs `position`: the log's last position as `trx` sees it.
     */
    steps?: {
      position: (trx: DynamicTransaction) => Promise<number>;
      eventsAfter: (trx: DynamicTransaction, position: number) => Promise<readonly ProjectedEvent[]>;
    };
  };
  /**
   * Read the log and the live tables on a second connection that imports the transaction's snapshot (PostgreSQL:
   * pg_export_snapshot), so the database reads the log while it writes the rebuild, and checksums the live tables
   * while the rebuilt rows go in. Without it (PGlite: one connection) everything runs on the transaction.
   */
  secondConnection?: boolean;
  /** Rows of the mutable read models kept in memory (default ROWS_IN_MEMORY); the rest wait in the scratch tables. */
  rowsInMemory?: number;
  /** A stepwise swap's progress: rows rewritten so far of `total` (every differing key of every read model). */
  onSwapProgress?: (rewritten: number, total: number) => void;
  /**
   * Write the rebuilt rows of append-only read models to the scratch tables even without swap. Without it they are
   * only fingerprinted (row-fingerprint.ts), and only when a fingerprint differs is the replay run again with them
   * written, to show which rows differ.
   */
  keepAppendedRows?: boolean;
}

const SCRATCH = 'projection_replay';
/** Rows of the mutable read models a replay keeps in memory; the rest wait in the scratch tables. */
const ROWS_IN_MEMORY = 20_000;

/**
 * Rebuilds every projection from the log into fresh tables and compares them row for row with the live read
 * models. Reducers run on a bounded cache of rows (SpillingRowStore): rows leave it for the scratch tables in
 * multi-row batches, each sent while the next is built, and are read back by key when an event needs them again, so
 * memory does not grow with the log. Everything happens in one repeatable-read transaction that is rolled back at
 * the end (and, with `secondConnection`, a read-only one that shares its snapshot), so the live tables are read at
 * the same instant as the log and nothing is left behind.
 *
 * With `swap`, the transaction is read-committed and first takes `swap.lock`; once it holds it no writer can
 * interleave, so every later statement sees the same log and read models. After the comparison each live table is
 * emptied (DELETE, so readers keep reading the old rows until commit) and refilled from the rebuild, the scratch
 * schema is dropped, and the transaction commits. With `swap.steps` the rebuild is committed instead (the scratch
 * schema, with a table of the differing keys per read model) and rewritten into the live tables in small steps.
 */
export async function replayAndCompare(
  db: DynamicDb,
  projections: readonly Projection[],
  readPages: (reader: DynamicDb) => AsyncIterable<readonly ProjectedEvent[]>,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const started = performance.now();
  const specs = projections.flatMap((p) => p.tables);
  const { swap } = options;
  const steps = swap?.steps;
  const inOne = swap && !steps; // the whole swap in the rebuild's transaction, under the lock
  let report: ReplayReport | undefined;
  let stepwise: { rebuild: ScratchRebuild; position: number; work: SwapWork[] } | undefined;
  try {
    await db
      .transaction()
      .setIsolationLevel(inOne ? 'read committed' : 'repeatable read')
      .execute(async (trx) => {
        if (inOne) await swap.lock(trx);
        const columns = await createScratch(trx, specs);
        const position = steps ? await steps.position(trx) : 0;
        const fingerprints = swap || options.keepAppendedRows ? new Map() : await appendOnlyFingerprints(trx, specs);
        const rebuild = new ScratchRebuild(specs, columns, trx, options.rowsInMemory ?? ROWS_IN_MEMORY, fingerprints);
        const { events, liveFigures } = await onReader(
          db,
          trx,
          !inOne && options.secondConnection === true,
          async (reader) => {
            let count = 0;
            for await (const page of readingAhead(readPages(reader))) {
              await applyEvents(rebuild.store, projections, page);
              count += page.length;
            }
            // The log is read: the reader sums up the live tables while the rest of the rebuild goes in.
            const live = liveFiguresOf(reader, specs, fingerprints);
            live.catch(() => undefined); // awaited below unless the rebuild fails first
            await rebuild.flush();
            return { events: count, liveFigures: await live };
          },
        );

        const tables: TableComparison[] = [];
        for (const spec of specs) {
          const live = liveFigures.get(spec.name)!;
          const fingerprint = fingerprints.get(spec.name);
          tables.push(
            fingerprint
              ? compareFingerprints(spec, live, fingerprint.sum)
              : await compareTable(trx, spec, live, options.sampleSize ?? 3),
          );
        }
        const swapped: SwappedTable[] = [];
        if (inOne) {
          for (const spec of specs) swapped.push(await replaceTable(trx, spec));
          await sql.raw(`DROP SCHEMA ${SCRATCH} CASCADE`).execute(trx);
        }
        if (steps) {
          const work: SwapWork[] = [];
          for (const [i, spec] of specs.entries()) if (!tables[i]!.match) work.push(await differingKeys(trx, spec));
          stepwise = { rebuild, position, work };
        }
        const seconds = (performance.now() - started) / 1000;
        report = {
          events,
          seconds,
          eventsPerSecond: seconds > 0 ? events / seconds : events,
          match: tables.every((t) => t.match),
          tables,
          ...(inOne ? { swapped } : {}),
        };
        if (!inOne && !steps) throw new RollbackScratch();
        // With steps the transaction commits: the scratch schema holds the rebuild the steps write from.
      });
  } catch (error) {
    if (!(error instanceof RollbackScratch)) throw error;
  }
  if (report!.tables.some((t) => t.unsampled)) {
    // A fingerprint differs: the rows themselves are needed to show how.
    const again = await replayAndCompare(db, projections, readPages, { ...options, keepAppendedRows: true });
    const seconds = (performance.now() - started) / 1000;
    return { ...again, seconds, eventsPerSecond: again.events / seconds };
  }
  if (stepwise && steps && swap) {
    try {
      report = {
        ...report!,
        swapped: await swapInSteps(
          db,
          projections,
          specs,
          stepwise,
          swap.lock,
          steps.eventsAfter,
          options.onSwapProgress,
        ),
      };
    } finally {
      await sql.raw(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`).execute(db);
    }
    report.seconds = (performance.now() - started) / 1000;
  }
  return report!;
}

/**
 * A fresh scratch schema with a table like each live one; mutable tables get a unique index on their key, which the
 * rebuild reads and replaces rows by. A schema left by an interrupted stepwise swap (committed) is dropped first.
 * Answers each scratch table's columns in their order.
 */
async function createScratch(trx: DynamicTransaction, specs: readonly TableSpec[]): Promise<Map<string, string[]>> {
  await sql.raw(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`).execute(trx);
  await sql.raw(`CREATE SCHEMA ${SCRATCH}`).execute(trx);
  for (const spec of specs) {
    await sql
      .raw(`CREATE UNLOGGED TABLE ${SCRATCH}.${spec.name} (LIKE public.${spec.name} INCLUDING DEFAULTS)`)
      .execute(trx);
    if (!spec.appendOnly)
      await sql.raw(`CREATE UNIQUE INDEX ON ${SCRATCH}.${spec.name} (${keyColumns(spec)})`).execute(trx);
  }
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = ${SCRATCH} ORDER BY table_name, ordinal_position`.execute(trx);
  const columns = new Map<string, string[]>();
  for (const { table_name: table, column_name: column } of rows)
    columns.set(table, [...(columns.get(table) ?? []), column]);
  return columns;
}

const keyColumns = (spec: TableSpec) => spec.key.map((c) => `"${c}"`).join(', ');

/**
 * The rebuild's rows: a bounded row store whose rows spill into the scratch tables through `executor` (the
 * rebuild's transaction, then each swap step's). Every statement is queued on the connection in the order the
 * store asks for it, so a row read back sees every write before it.
 */
class ScratchRebuild {
  readonly appendSink = { discard: false };
  readonly store: SpillingRowStore;
  private writes = new PipelinedWrites();

  constructor(
    specs: readonly TableSpec[],
    columns: ReadonlyMap<string, readonly string[]>,
    private executor: DynamicDb,
    rowsInMemory: number,
    fingerprints: ReadonlyMap<string, { sum: RowsFingerprint }>,
  ) {
    const target: SpillTarget = {
      insert: async (table, rows) => {
        const fingerprint = fingerprints.get(table);
        if (fingerprint) {
          for (const row of rows) fingerprint.sum.add(row);
          return;
        }
        for (const statement of insertStatements(`${SCRATCH}.${table}`, columns.get(table)!, rows))
          await this.writes.add(() => statement.execute(this.executor).then(() => undefined));
      },
      remove: async (table, keys) => {
        const statement = deleteByKeys(
          `${SCRATCH}.${table}`,
          specs.find((s) => s.name === table)!,
          keys,
        );
        await this.writes.add(() => statement.execute(this.executor).then(() => undefined));
      },
      read: async (spec, key) => {
        let query = this.executor.withSchema(SCRATCH).selectFrom(spec.name).selectAll();
        spec.key.forEach((column, i) => {
          query = query.where(column, '=', key[i]);
        });
        const raw = await query.executeTakeFirst();
        return raw ? normaliseRow(raw as Record<string, unknown>) : undefined;
      },
    };
    this.store = new SpillingRowStore(specs, target, rowsInMemory, 2_000, this.appendSink);
  }

  /** Writes what the store holds changed and waits for every write. */
  async flush(): Promise<void> {
    await this.store.flush();
    await this.writes.drain();
  }

  /** From now on the rows go through `executor` (a swap step's transaction). */
  use(executor: DynamicDb): void {
    this.executor = executor;
    this.writes = new PipelinedWrites();
  }
}

/** A read model whose live rows differ from the rebuild: a scratch table of their keys, numbered from 1. */
interface SwapWork {
  spec: TableSpec;
  keysTable: string;
  count: number;
}

const SWAP_BATCH = 250;

/**
 * The keys of rows only in live or only in the rebuild (a changed row is in both), kept in a scratch table numbered
 * for the steps to walk; an append-only scratch table gets the key index the steps join on.
 */
async function differingKeys(trx: DynamicTransaction, spec: TableSpec): Promise<SwapWork> {
  const live = `public.${spec.name}`;
  const rebuilt = `${SCRATCH}.${spec.name}`;
  const keysTable = `${SCRATCH}.keys_${spec.name}`;
  const columns = keyColumns(spec);
  await sql
    .raw(
      `CREATE UNLOGGED TABLE ${keysTable} AS SELECT row_number() OVER () AS n, d.* FROM (SELECT DISTINCT ${columns} FROM ((SELECT * FROM ${live} EXCEPT ALL SELECT * FROM ${rebuilt}) UNION ALL (SELECT * FROM ${rebuilt} EXCEPT ALL SELECT * FROM ${live})) AS e) AS d`,
    )
    .execute(trx);
  await sql.raw(`CREATE INDEX ON ${keysTable} (n)`).execute(trx);
  if (spec.appendOnly) await sql.raw(`CREATE INDEX ON ${rebuilt} (${columns})`).execute(trx);
  // Fresh tables have no statistics: without them each step's join scanned the whole rebuilt table (10 s a step on a
  // million audit rows, all of it under the lock).
  await sql.raw(`ANALYZE ${rebuilt}, ${keysTable}`).execute(trx);
  const { rows } = await sql.raw<{ count: number | string }>(`SELECT count(*) AS count FROM ${keysTable}`).execute(trx);
  return { spec, keysTable, count: Number(rows[0]!.count) };
}

/**
 * Rewrites the differing rows, SWAP_BATCH keys per short transaction under `lock`. Each transaction first brings the
 * rebuild up to the log's head by applying the events appended since the last step, so a batch writes the rows as
 * the log says they are now; rows that matched stay as they are (the same events changed both alike).
 */
async function swapInSteps(
  db: DynamicDb,
  projections: readonly Projection[],
  specs: readonly TableSpec[],
  state: { rebuild: ScratchRebuild; position: number; work: SwapWork[] },
  lock: (trx: DynamicTransaction) => Promise<void>,
  eventsAfter: (trx: DynamicTransaction, position: number) => Promise<readonly ProjectedEvent[]>,
  onProgress?: (rewritten: number, total: number) => void,
): Promise<SwappedTable[]> {
  const total = state.work.reduce((n, w) => n + w.count, 0);
  let rewritten = 0;
  const counts = new Map(specs.map((s) => [s.name as string, { table: s.name as string, deleted: 0, inserted: 0 }]));
  const { rebuild } = state;
  rebuild.appendSink.discard = true; // append-only rows of later events are the live projection's to insert
  let position = state.position;
  for (const { spec, keysTable, count } of state.work) {
    const live = `public.${spec.name}`;
    const rebuilt = `${SCRATCH}.${spec.name}`;
    const on = (a: string, b: string) => spec.key.map((c) => `${a}."${c}" = ${b}."${c}"`).join(' AND ');
    for (let first = 1; first <= count; first += SWAP_BATCH) {
      const keys = `(SELECT * FROM ${keysTable} WHERE n >= ${first} AND n < ${first + SWAP_BATCH})`;
      await db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          await lock(trx);
          const later = await eventsAfter(trx, position);
          if (later.length) {
            rebuild.use(trx);
            await applyEvents(rebuild.store, projections, later);
            await rebuild.flush();
            position = Number(later.at(-1)!.position);
          }
          const deleted = await sql
            .raw(`DELETE FROM ${live} AS l USING ${keys} AS k WHERE ${on('l', 'k')}`)
            .execute(trx);
          const inserted = await sql
            .raw(`INSERT INTO ${live} SELECT r.* FROM ${rebuilt} AS r JOIN ${keys} AS k ON ${on('r', 'k')}`)
            .execute(trx);
          const tally = counts.get(spec.name)!;
          tally.deleted += Number(deleted.numAffectedRows ?? 0);
          tally.inserted += Number(inserted.numAffectedRows ?? 0);
        });
      rewritten += Math.min(SWAP_BATCH, count - first + 1);
      onProgress?.(rewritten, total);
    }
  }
  return [...counts.values()];
}

/**
 * Runs `work` with the connection that reads: with `second`, another connection in a repeatable-read transaction
 * that imports the snapshot of `trx` (it sees exactly what `trx` sees, and reads while `trx` writes); else `trx`.
 */
async function onReader<T>(
  db: DynamicDb,
  trx: DynamicTransaction,
  second: boolean,
  work: (reader: DynamicDb) => Promise<T>,
): Promise<T> {
  if (!second) return work(trx);
  const { id } = (await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(trx)).rows[0]!;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (reader) => {
      await sql.raw(`SET TRANSACTION SNAPSHOT '${id.replaceAll("'", "''")}'`).execute(reader);
      return work(reader);
    });
}

/**
 * Writes started without waiting for each to finish (at most `depth` at once, queued on the transaction's
 * connection), so rows are built for the next batch while the database inserts the last. The first failure is
 * thrown by the next `add` or by `drain`.
 */
class PipelinedWrites {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly depth = 3) {}

  async add(write: () => Promise<void>): Promise<void> {
    this.throwIfFailed();
    while (this.running.size >= this.depth) await Promise.race(this.running);
    this.throwIfFailed();
    const running: Promise<void> = write().then(
      () => void this.running.delete(running),
      (error: unknown) => {
        this.running.delete(running);
        this.failure ??= { error };
      },
    );
    this.running.add(running);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}

class RollbackScratch extends Error {}

/** The pages of `source`, asking for the next one before handing out the current: the database reads while we apply. */
async function* readingAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const pages = source[Symbol.asyncIterator]();
  let next = pages.next();
  for (;;) {
    const current = await next;
    if (current.done) return;
    next = pages.next();
    next.catch(() => undefined); // a failed read is thrown where it is awaited, not reported as unhandled meanwhile
    yield current.value;
  }
}

/** Empties the live table and fills it with the rebuilt rows (same columns in the same order: `LIKE`). */
async function replaceTable(trx: DynamicTransaction, spec: TableSpec): Promise<SwappedTable> {
  const deleted = await sql.raw(`DELETE FROM public.${spec.name}`).execute(trx);
  const inserted = await sql.raw(`INSERT INTO public.${spec.name} SELECT * FROM ${SCRATCH}.${spec.name}`).execute(trx);
  return {
    table: spec.name,
    deleted: Number(deleted.numAffectedRows ?? 0),
    inserted: Number(inserted.numAffectedRows ?? 0),
  };
}

interface Figures {
  n: number;
  checksum: string | null;
}

async function liveFiguresOf(
  reader: DynamicDb,
  specs: readonly TableSpec[],
  fingerprints: ReadonlyMap<string, { plan: FingerprintPlan }>,
): Promise<Map<string, Figures>> {
  const live = new Map<string, Figures>();
  for (const spec of specs) {
    const fingerprint = fingerprints.get(spec.name);
    live.set(
      spec.name,
      await (fingerprint ? fingerprint.plan.ofLive(reader) : figuresOf(reader, `public.${spec.name}`)),
    );
  }
  return live;
}

/**
 * The append-only read models whose rebuild is fingerprinted instead of written to a scratch table: every one whose
 * column types the fingerprint knows.
 */
async function appendOnlyFingerprints(
  trx: DynamicTransaction,
  specs: readonly TableSpec[],
): Promise<Map<string, { plan: FingerprintPlan; sum: RowsFingerprint }>> {
  const fingerprints = new Map<string, { plan: FingerprintPlan; sum: RowsFingerprint }>();
  for (const spec of specs.filter((s) => s.appendOnly)) {
    const plan = await fingerprintPlan(trx, spec.name);
    if (plan) fingerprints.set(spec.name, { plan, sum: plan.sum() });
  }
  return fingerprints;
}

/**
 * A fingerprinted table's comparison. When the fingerprints differ (or a rebuilt row lacked a column) it cannot name
 * the rows that differ: it is `unsampled`, and the replay runs again with the rows written.
 */
function compareFingerprints(spec: TableSpec, live: Figures, rebuilt: RowsFingerprint): TableComparison {
  const figures = rebuilt.result();
  const match = rebuilt.complete && live.n === figures.n && live.checksum === figures.checksum;
  return {
    table: spec.name,
    liveRows: Number(live.n),
    rebuiltRows: figures.n,
    onlyLive: [],
    onlyRebuilt: [],
    match,
    ...(match ? {} : { unsampled: true }),
  };
}

/** A table's row count and an order-free checksum of every row's text: one scan. */
async function figuresOf(executor: DynamicDb, table: string): Promise<Figures> {
  const sum = `SELECT count(*)::int AS n, sum(hashtextextended(t::text, 0)::numeric)::text AS checksum FROM ${table} AS t`;
  return (await sql.raw<Figures>(sum).execute(executor)).rows[0]!;
}

/**
 * The live table's figures (read with the same snapshot) against the rebuilt one's; only tables whose figures
 * differ are compared row by row (EXCEPT ALL, which sorts both tables) to show the first differences.
 */
async function compareTable(
  trx: DynamicTransaction,
  spec: TableSpec,
  liveFigures: Figures,
  sampleSize: number,
): Promise<TableComparison> {
  const live = `public.${spec.name}`;
  const rebuilt = `${SCRATCH}.${spec.name}`;
  const rebuiltFigures = await figuresOf(trx, rebuilt);
  const same = liveFigures.n === rebuiltFigures.n && liveFigures.checksum === rebuiltFigures.checksum;
  const difference = async (a: string, b: string) =>
    same
      ? []
      : (await sql.raw<Row>(`SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b} LIMIT ${sampleSize}`).execute(trx)).rows;
  const onlyLive = await difference(live, rebuilt);
  const onlyRebuilt = await difference(rebuilt, live);
  return {
    table: spec.name,
    liveRows: Number(liveFigures.n),
    rebuiltRows: Number(rebuiltFigures.n),
    onlyLive,
    onlyRebuilt,
    match: same || (onlyLive.length === 0 && onlyRebuilt.length === 0),
  };
}
