import type { RowStore } from './projection.ts';
import type { RowOf, TableName } from './tables.ts';

/**
 * What an error names when the row to update is missing: `escrows projection: PaymentMarked for unknown escrow 6f1c…`.
 * One constant per projection: replay runs this for a million events, so nothing is allocated per event for it.
 */
interface RowCause {
  projection: string;
  /** What the row is, in words: 'escrow', 'payment mark'. */
  noun: string;
}

/**
 * Reads the row at `key`, merges `change(row)` into it (a copy of it, unless the store owns its rows) and puts it back. The row must be there: an event about a
 * row the read model lacks means the two disagree, so that throws instead of writing half a row.
 */
export async function updateRow<T extends TableName>(
  store: RowStore,
  table: T,
  key: readonly (string | number)[],
  change: NoInfer<(row: RowOf<T>) => Partial<RowOf<T>>>,
  event: { type: string },
  cause: RowCause,
): Promise<void> {
  const row = await existingRow(store, table, key, event, cause);
  await store.put(table, store.ownsRows ? Object.assign(row, change(row)) : { ...row, ...change(row) });
}

/** The row at `key`; throws, naming `cause`, when there is none. */
export async function existingRow<T extends TableName>(
  store: RowStore,
  table: T,
  key: readonly (string | number)[],
  event: { type: string },
  cause: RowCause,
): Promise<RowOf<T>> {
  const row = await store.get(table, key);
  if (!row) throw new Error(`${cause.projection} projection: ${event.type} for unknown ${cause.noun} ${key.join(' ')}`);
  return row;
}
