import { asRowOf, type Row, type RowStore, type TableSpec } from './projection.ts';
import type { RowOf, TableName } from './tables.ts';

export type RowChange = { kind: 'put'; row: Row } | { kind: 'delete'; key: readonly (string | number)[] };

const keyOf = (values: readonly unknown[]) => JSON.stringify(values);

/**
 * Rows read from the database, changes kept in memory: reducers see their own writes (a row they put reads back
 * as put, as in MemoryRowStore), and the append writes every change at the end in one statement. One change per
 * row survives: the last put or delete.
 */
export class BufferedRowStore implements RowStore {
  private readonly specs: Map<string, TableSpec>;
  private readonly pending = new Map<string, Map<string, RowChange>>();

  constructor(
    specs: readonly TableSpec[],
    private readonly load: (spec: TableSpec, key: readonly (string | number)[]) => Promise<Row | undefined>,
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  private spec(table: string): TableSpec {
    const spec = this.specs.get(table);
    if (!spec) throw new Error(`Projection table ${table} is not declared`);
    return spec;
  }

  private changesOf(table: string): Map<string, RowChange> {
    let changes = this.pending.get(table);
    if (!changes) this.pending.set(table, (changes = new Map()));
    return changes;
  }

  async get<T extends TableName>(table: T, key: readonly (string | number)[]): Promise<RowOf<T> | undefined> {
    const spec = this.spec(table);
    const change = this.pending.get(table)?.get(keyOf(key));
    if (change) return change.kind === 'put' ? asRowOf<T>(change.row) : undefined;
    return asRowOf<T>(await this.load(spec, key));
  }

  async put<T extends TableName>(table: T, typed: RowOf<T>): Promise<void> {
    const row: Row = typed;
    const spec = this.spec(table);
    this.changesOf(table).set(keyOf(spec.key.map((c) => row[c])), { kind: 'put', row });
  }

  async delete(table: TableName, key: readonly (string | number)[]): Promise<void> {
    this.spec(table);
    this.changesOf(table).set(keyOf(key), { kind: 'delete', key });
  }

  /** Every table's surviving changes, in the order tables were first touched. */
  changes(): Array<{ spec: TableSpec; changes: RowChange[] }> {
    return [...this.pending].map(([table, changes]) => ({ spec: this.spec(table), changes: [...changes.values()] }));
  }
}
