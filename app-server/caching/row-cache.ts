import type { RowChange } from '../../projections/buffered-row-store.ts';
import type { Row, TableSpec } from '../../projections/projection.ts';
import type { ChainHead } from '../event-store/chain-head.ts';

const MAX_ROWS = 20_000;

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

const rowKey = (table: string, key: readonly unknown[]) => `${table}\u0000${JSON.stringify(key)}`;

/**
 * What this process last saw of the read models, so an append need not ask the database again: the chain head and
 * read-model rows as they were at that head, owned by one event store. Nothing here is trusted on its own: every
 * append that uses it is written only if the head is still what it says, and when the head turns out to have moved
 * elsewhere (another process appended) the rows are dropped. Bounded in size.
 */
export class RowCache {
  private head: ChainHead | null = null;
  private readonly rows = new Map<string, Row | null>();

  lastHead(): ChainHead | null {
    return this.head;
  }

  /** The rows are those of `head`: kept if it is the head they belong to, dropped if the log moved elsewhere. */
  at(head: ChainHead): void {
    if (this.head && this.head.position === head.position && this.head.hash === head.hash) return;
    this.rows.clear();
    this.head = head;
  }

  async row(
    spec: TableSpec,
    key: readonly (string | number)[],
    load: () => Promise<Row | undefined>,
  ): Promise<Row | undefined> {
    const k = rowKey(spec.name, key);
    const known = this.rows.get(k);
    if (known !== undefined) return known ?? undefined;
    const row = await load();
    remember(this.rows, k, row ?? null, MAX_ROWS);
    return row;
  }

  forgetAll(): void {
    this.head = null;
    this.rows.clear();
  }

  /** An append moved the head from `from` to `to` with these changes: the rows follow it. */
  committed(from: ChainHead, to: ChainHead, changes: Array<{ spec: TableSpec; changes: RowChange[] }>): void {
    if (this.head && this.head.position === from.position && this.head.hash === from.hash) {
      for (const { spec, changes: rows } of changes) {
        for (const change of rows) {
          if (change.kind === 'put')
            remember(
              this.rows,
              rowKey(
                spec.name,
                spec.key.map((c) => change.row[c]),
              ),
              change.row,
              MAX_ROWS,
            );
          else remember(this.rows, rowKey(spec.name, change.key), null, MAX_ROWS);
        }
      }
      this.head = to;
    } else if (!this.head || to.position > this.head.position) {
      this.rows.clear();
      this.head = to;
    }
  }
}
