import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return that some strip
 * first) gets a leading apostrophe: the text stays readable and nothing runs.
 */
export const neutralise = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** RFC 4180 CSV: a header row, CRLF line ends, quotes where needed; every text cell neutralised. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return stringify([header as string[], ...rows.map((row) => row.map((cell) => (cell === null ? '' : cell)))], {
    record_delimiter: '\r\n',
    cast: { string: (value) => neutralise(value) },
  });
}
