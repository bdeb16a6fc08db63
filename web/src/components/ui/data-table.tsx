import type { Key, ReactNode } from 'react';
import './data-table.css';

/** One column: its header, which also labels each of its cells (a phone shows the label beside the value). */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/**
 * A table of rows with a hidden caption for screen readers. Each cell carries its column's header as `data-label`,
 * which the phone layout (data-table.css) shows when the header row is hidden.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  className,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  className?: string;
}) {
  return (
    <table className={className ? `data-table ${className}` : 'data-table'}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.header} data-label={column.header} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
