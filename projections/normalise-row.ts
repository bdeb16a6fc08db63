import type { Row } from './projection.ts';

/** Normalises what the driver returns into the row shape reducers use (times as ISO strings). */
export function normaliseRow(raw: Record<string, unknown>): Row {
  const row: Row = {};
  for (const [column, value] of Object.entries(raw)) {
    row[column] = value instanceof Date ? value.toISOString() : (value as Row[string]);
  }
  return row;
}
