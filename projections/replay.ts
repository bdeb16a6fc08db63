import { sql } from 'kysely';
import type { StoredEvent } from '../domain/stored-event.ts';
import { applyEvents } from './apply.ts';
import type { DynamicDb, DynamicTransaction } from './dynamic-db.ts';
import { MemoryRowStore } from './memory-row-store.ts';
import type { Projection, Row, TableSpec } from './projection.ts';

export interface TableComparison {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  /** Rows in the live table that the rebuild does not have (first few). */
  onlyLive: Row[];
  /** Rows the rebuild has that the live table does not (first few). */
  onlyRebuilt: Row[];
  match: boolean;
}

export interface ReplayReport {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  match: boolean;
  tables: TableComparison[];
}

const SCRATCH = 'projection_replay';
const MAX_PARAMS = 60_000;

/**
 * Rebuilds every projection from the log into fresh tables and compares them row for row with the live read
 * models. Reducers run in memory; rows reach the database in multi-row batches. Everything happens in one
 * repeatable-read transaction that is rolled back at the end, so the live tables are read at the same instant as
 * the log and nothing is left behind.
 */
export async function replayAndCompare(
  db: DynamicDb,
  projections: readonly Projection[],
  readPages: (trx: DynamicTransaction) => AsyncIterable<readonly StoredEvent[]>,
  options: { sampleSize?: number } = {},
): Promise<ReplayReport> {
  const started = performance.now();
  const specs = projections.flatMap((p) => p.tables);
  let report: ReplayReport | undefined;
  try {
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql.raw(`CREATE SCHEMA ${SCRATCH}`).execute(trx);
        for (const spec of specs) {
          await sql
            .raw(`CREATE TABLE ${SCRATCH}.${spec.name} (LIKE public.${spec.name} INCLUDING DEFAULTS)`)
            .execute(trx);
        }
        const scratch = trx.withSchema(SCRATCH);
        const memory = new MemoryRowStore(specs, (table, rows) => insertRows(scratch, table, rows));
        let events = 0;
        for await (const page of readPages(trx)) {
          await applyEvents(memory, projections, page);
          events += page.length;
        }
        await memory.flush();
        for (const [table, rows] of memory.tables) await insertRows(scratch, table, [...rows.values()]);

        const tables: TableComparison[] = [];
        for (const spec of specs) tables.push(await compareTable(trx, spec, options.sampleSize ?? 3));
        const seconds = (performance.now() - started) / 1000;
        report = {
          events,
          seconds,
          eventsPerSecond: seconds > 0 ? events / seconds : events,
          match: tables.every((t) => t.match),
          tables,
        };
        throw new RollbackScratch();
      });
  } catch (error) {
    if (!(error instanceof RollbackScratch)) throw error;
  }
  return report!;
}

class RollbackScratch extends Error {}

async function insertRows(db: DynamicDb, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0]!).length);
  const batch = Math.max(1, Math.floor(MAX_PARAMS / columns));
  for (let i = 0; i < rows.length; i += batch) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + batch))
      .execute();
  }
}

async function compareTable(
  trx: DynamicTransaction,
  spec: TableSpec,
  sampleSize: number,
): Promise<TableComparison> {
  const live = `public.${spec.name}`;
  const rebuilt = `${SCRATCH}.${spec.name}`;
  const count = async (from: string) =>
    Number((await sql.raw<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`).execute(trx)).rows[0]!.n);
  const difference = async (a: string, b: string) =>
    (await sql.raw<Row>(`SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b} LIMIT ${sampleSize}`).execute(trx))
      .rows;
  const onlyLive = await difference(live, rebuilt);
  const onlyRebuilt = await difference(rebuilt, live);
  return {
    table: spec.name,
    liveRows: await count(live),
    rebuiltRows: await count(rebuilt),
    onlyLive,
    onlyRebuilt,
    match: onlyLive.length === 0 && onlyRebuilt.length === 0,
  };
}
