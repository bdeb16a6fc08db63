import { sql } from 'kysely';
import type { DynamicDb } from './dynamic-db.ts';
import type { Row, RowStore, TableSpec } from './projection.ts';

/** Normalises what the driver returns into the row shape reducers use (times as ISO strings). */
export function normaliseRow(raw: Record<string, unknown>): Row {
  const row: Row = {};
  for (const [column, value] of Object.entries(raw)) {
    row[column] = value instanceof Date ? value.toISOString() : (value as Row[string]);
  }
  return row;
}

/** Rows in the database, inside the append transaction. */
export class DbRowStore implements RowStore {
  private readonly specs: Map<string, TableSpec>;

  constructor(
    private readonly db: DynamicDb,
    specs: readonly TableSpec[],
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  private spec(table: string): TableSpec {
    const spec = this.specs.get(table);
    if (!spec) throw new Error(`Projection table ${table} is not declared`);
    return spec;
  }

  async get(table: string, key: readonly (string | number)[]): Promise<Row | undefined> {
    const spec = this.spec(table);
    let query = this.db.selectFrom(table).selectAll();
    spec.key.forEach((column, i) => {
      query = query.where(column, '=', key[i]);
    });
    const raw = await query.executeTakeFirst();
    return raw ? normaliseRow(raw) : undefined;
  }

  async put(table: string, row: Row): Promise<void> {
    const spec = this.spec(table);
    const updates = Object.keys(row).filter((c) => !spec.key.includes(c));
    await this.db
      .insertInto(table)
      .values(row)
      .onConflict((oc) =>
        updates.length === 0
          ? oc.columns(spec.key as string[]).doNothing()
          : oc
              .columns(spec.key as string[])
              .doUpdateSet(Object.fromEntries(updates.map((c) => [c, sql.ref(`excluded.${c}`)]))),
      )
      .execute();
  }

  async delete(table: string, key: readonly (string | number)[]): Promise<void> {
    const spec = this.spec(table);
    let query = this.db.deleteFrom(table);
    spec.key.forEach((column, i) => {
      query = query.where(column, '=', key[i]);
    });
    await query.execute();
  }
}
