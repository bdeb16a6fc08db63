import { BloomFilter } from 'bloomfilter';
import { asRowOf, type Row, type RowStore, type TableSpec } from './projection.ts';
import type { RowOf, TableName } from './tables.ts';

/** Where rows go that do not fit in memory: a table per read model, read and written by key. */
export interface SpillTarget {
  /** Inserts rows (none of whose keys are in the table). */
  insert(table: string, rows: Row[]): Promise<void>;
  /** Removes the rows with these keys (each a row of the key columns). */
  remove(table: string, keys: Row[]): Promise<void>;
  /** The row with this key, if the table has it. */
  read(spec: TableSpec, key: readonly (string | number)[]): Promise<Row | undefined>;
}

interface Entry {
  /** The table and the key, as the cache's map knows the entry. */
  id: string;
  table: string;
  key: readonly (string | number)[];
  /** Undefined: the row is deleted (or known to be absent). */
  row: Row | undefined;
  /** Changed since it was last written to (or read from) the target. */
  dirty: boolean;
  /** Neighbours in the order of use, `older` toward the next to be evicted. */
  older: Entry | undefined;
  newer: Entry | undefined;
}

const keyText = (values: readonly unknown[]) => (values.length === 1 ? String(values[0]) : JSON.stringify(values));

/**
 * Rows of the mutable read models in a bounded cache (least recently used first out), the rest in `target`, so a
 * replay of any length holds at most `capacity` rows. An evicted changed row is written to the target; a row not
 * in the cache is read back from it, but only when a Bloom filter of the keys ever written says it may be there
 * (a new row, the usual case, costs no read). Append-only tables are handed to the target in batches and never kept.
 * `flush` writes every changed row, so the target then holds the whole rebuild.
 */
export class SpillingRowStore implements RowStore {
  /** Every row here was put by a projection or read back fresh: an update may change it in place. */
  readonly ownsRows = true;
  private readonly specs: Map<string, TableSpec>;
  private readonly entries = new Map<string, Entry>();
  /**
   * The entries in the order of use, as a list linked through them: moving a used entry to the newest end costs no
   * change to the map (deleting and setting it there on every read and write took 1.8 s of a million-event replay).
   */
  private oldest: Entry | undefined;
  private newest: Entry | undefined;
  private readonly appended = new Map<string, Row[]>();
  private readonly written = new BloomFilter(32 * 1024 * 1024, 7);
  /** Rows read back from the target (a figure for tests and tuning). */
  reads = 0;

  constructor(
    specs: readonly TableSpec[],
    private readonly target: SpillTarget,
    private readonly capacity = 20_000,
    private readonly appendBatch = 2_000,
    /** When set, rows of append-only tables are dropped instead of written. */
    private readonly appendSink: { discard: boolean } = { discard: false },
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  /** Rows held in memory now. */
  get size(): number {
    return this.entries.size;
  }

  private spec(table: string): TableSpec {
    const spec = this.specs.get(table);
    if (!spec) throw new Error(`Projection table ${table} is not declared`);
    return spec;
  }

  async get<T extends TableName>(table: T, key: readonly (string | number)[]): Promise<RowOf<T> | undefined> {
    const id = `${table}\n${keyText(key)}`;
    const cached = this.entries.get(id);
    if (cached) {
      this.touch(cached);
      return asRowOf<T>(cached.row);
    }
    let row: Row | undefined;
    if (this.written.test(id)) {
      this.reads++;
      row = await this.target.read(this.spec(table), key);
    }
    await this.keep(id, table, key, row, false);
    return asRowOf<T>(row);
  }

  async put<T extends TableName>(table: T, typed: RowOf<T>): Promise<void> {
    const row: Row = typed;
    const spec = this.spec(table);
    if (spec.appendOnly) {
      if (this.appendSink.discard) return;
      const rows = this.appended.get(table) ?? [];
      rows.push(row);
      this.appended.set(table, rows);
      if (rows.length >= this.appendBatch) await this.flushAppended(table);
      return;
    }
    const key = spec.key.map((c) => row[c] as string | number);
    await this.keep(`${table}\n${keyText(key)}`, table, key, row, true);
  }

  async delete(table: TableName, key: readonly (string | number)[]): Promise<void> {
    this.spec(table);
    await this.keep(`${table}\n${keyText(key)}`, table, key, undefined, true);
  }

  /** Writes every changed row and buffered append-only row to the target; the cache keeps them, now unchanged. */
  async flush(): Promise<void> {
    await this.write([...this.entries.values()]);
    for (const table of this.appended.keys()) await this.flushAppended(table);
  }

  private async keep(
    id: string,
    table: string,
    key: readonly (string | number)[],
    row: Row | undefined,
    dirty: boolean,
  ): Promise<void> {
    const held = this.entries.get(id);
    if (held) {
      held.row = row;
      held.dirty = dirty;
      this.touch(held);
      return;
    }
    const entry: Entry = { id, table, key, row, dirty, older: undefined, newer: undefined };
    this.entries.set(id, entry);
    this.append(entry);
    if (this.entries.size <= this.capacity) return;
    const evicted: Entry[] = [];
    while (this.oldest && evicted.length < this.capacity / 4) {
      const old = this.oldest;
      this.unlink(old);
      this.entries.delete(old.id);
      evicted.push(old);
    }
    await this.write(evicted);
  }

  /** Makes `entry` the most recently used. */
  private touch(entry: Entry): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  private unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
  }

  private append(entry: Entry): void {
    entry.older = this.newest;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  /** Each changed entry to the target: rows that may be there already are removed first, then the rows put. */
  private async write(items: readonly Entry[]): Promise<void> {
    const byTable = new Map<string, { stale: Row[]; rows: Row[] }>();
    for (const entry of items) {
      const { id } = entry;
      if (!entry.dirty) continue;
      entry.dirty = false;
      let work = byTable.get(entry.table);
      if (!work) byTable.set(entry.table, (work = { stale: [], rows: [] }));
      if (this.written.test(id)) {
        const spec = this.spec(entry.table);
        work.stale.push(Object.fromEntries(spec.key.map((c, i) => [c, entry.key[i]!])));
      }
      if (entry.row) {
        work.rows.push(entry.row);
        this.written.add(id);
      }
    }
    for (const [table, { stale, rows }] of byTable) {
      if (stale.length) await this.target.remove(table, stale);
      if (rows.length) await this.target.insert(table, rows);
    }
  }

  private async flushAppended(table: string): Promise<void> {
    const rows = this.appended.get(table);
    if (!rows || rows.length === 0) return;
    this.appended.set(table, []);
    await this.target.insert(table, rows);
  }
}
