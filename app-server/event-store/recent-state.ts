import type { StoredEvent } from '../../domain/stored-event.ts';
import type { RowChange } from '../../projections/buffered-row-store.ts';
import type { Row, TableSpec } from '../../projections/projection.ts';
import type { HeadState } from './append-statement.ts';

const MAX_ROWS = 20_000;
const MAX_STREAMS = 5_000;

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

const rowKey = (table: string, key: readonly unknown[]) => `${table}\u0000${JSON.stringify(key)}`;

/**
 * What this process last saw of the log, so a command need not ask the database again: the chain head, read-model
 * rows as they were at that head, and the events of recently used streams. Nothing here is trusted on its own:
 * every append that uses it is written only if the head (and each stream's version) is still what it says, and
 * when the head turns out to have moved elsewhere (another process appended) the rows are dropped. Bounded in size.
 */
export class RecentState {
  private head: HeadState | null = null;
  private readonly rows = new Map<string, Row | null>();
  private readonly streams = new Map<string, StoredEvent[]>();

  lastHead(): HeadState | null {
    return this.head;
  }

  /** The rows are those of `head`: kept if it is the head they belong to, dropped if the log moved elsewhere. */
  at(head: HeadState): void {
    if (this.head && this.head.position === head.position && this.head.hash === head.hash) return;
    this.rows.clear();
    this.head = head;
  }

  async row(spec: TableSpec, key: readonly (string | number)[], load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const k = rowKey(spec.name, key);
    const known = this.rows.get(k);
    if (known !== undefined) return known ?? undefined;
    const row = await load();
    remember(this.rows, k, row ?? null, MAX_ROWS);
    return row;
  }

  stream(streamId: string): StoredEvent[] | undefined {
    return this.streams.get(streamId);
  }

  rememberStream(streamId: string, events: StoredEvent[]): void {
    remember(this.streams, streamId, events, MAX_STREAMS);
  }

  forgetAll(): void {
    this.head = null;
    this.rows.clear();
    this.streams.clear();
  }

  forgetStream(streamId: string): void {
    this.streams.delete(streamId);
  }

  /** An append moved the head from `from` to `to` with these changes: the rows and streams follow it. */
  committed(from: HeadState, to: HeadState, changes: Array<{ spec: TableSpec; changes: RowChange[] }>, stored: StoredEvent[]): void {
    if (this.head && this.head.position === from.position && this.head.hash === from.hash) {
      for (const { spec, changes: rows } of changes) {
        for (const change of rows) {
          if (change.kind === 'put') remember(this.rows, rowKey(spec.name, spec.key.map((c) => change.row[c])), change.row, MAX_ROWS);
          else remember(this.rows, rowKey(spec.name, change.key), null, MAX_ROWS);
        }
      }
      this.head = to;
    } else if (!this.head || to.position > this.head.position) {
      this.rows.clear();
      this.head = to;
    }
    for (const event of stored) {
      const known = this.streams.get(event.stream_id);
      if (known && known.length === event.stream_version - 1) known.push(event);
      else if (event.stream_version === 1) this.rememberStream(event.stream_id, [event]);
      else this.streams.delete(event.stream_id);
    }
  }
}
