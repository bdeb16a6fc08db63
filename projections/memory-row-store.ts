import { asRowOf, type Row, type RowStore, type TableSpec } from './projection.ts';
import type { RowOf, TableName } from './tables.ts';

const keyOf = (values: readonly unknown[]) => (values.length === 1 ? String(values[0]) : JSON.stringify(values));

/**
 * Rows in memory, for replay and offline verification. Append-only tables are handed to `onAppend` in batches
 * instead of being kept, so memory stays bounded by the mutable read models.
 */
export class MemoryRowStore implements RowStore {
  /** Every row here was put by a projection of this store's own replay: an update may change it in place. */
  readonly ownsRows = true;
  readonly tables = new Map<string, Map<string, Row>>();
  private readonly specs: Map<string, TableSpec>;
  private readonly pending = new Map<string, Row[]>();

  constructor(
    specs: readonly TableSpec[],
    private readonly onAppend?: (table: string, rows: Row[]) => Promise<void>,
    private readonly appendBatch = 2_000,
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
    for (const spec of specs) this.tables.set(spec.name, new Map());
  }

  private spec(table: string): TableSpec {
    const spec = this.specs.get(table);
    if (!spec) throw new Error(`Projection table ${table} is not declared`);
    return spec;
  }

  async get<T extends TableName>(table: T, key: readonly (string | number)[]): Promise<RowOf<T> | undefined> {
    return asRowOf<T>(this.tables.get(table)?.get(keyOf(key)));
  }

  async put<T extends TableName>(table: T, typed: RowOf<T>): Promise<void> {
    const row: Row = typed;
    const spec = this.spec(table);
    if (spec.appendOnly && this.onAppend) {
      const rows = this.pending.get(table) ?? [];
      rows.push(row);
      this.pending.set(table, rows);
      if (rows.length >= this.appendBatch) await this.flushTable(table);
      return;
    }
    const key =
      spec.key.length === 1 ? String(row[spec.key[0]!]) : keyOf(spec.key.map((c) => row[c] as string | number));
    this.tables.get(table)!.set(key, row);
  }

  async delete(table: TableName, key: readonly (string | number)[]): Promise<void> {
    this.tables.get(table)?.delete(keyOf(key));
  }

  private async flushTable(table: string): Promise<void> {
    const rows = this.pending.get(table);
    if (!rows || rows.length === 0 || !this.onAppend) return;
    this.pending.set(table, []);
    await this.onAppend(table, rows);
  }

  /** Hands over every buffered append-only row. */
  async flush(): Promise<void> {
    for (const table of this.pending.keys()) await this.flushTable(table);
  }
}
