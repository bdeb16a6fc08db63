import { useState } from 'react';

/**
 * Paging through a list the server pages by cursor (each page starts where the one before it ended): remembers the
 * cursor of every page seen, so Previous goes back without asking the server where a page began. `first` is the
 * first page's cursor.
 */
export function useCursorPages<Cursor>(first: Cursor) {
  const [cursors, setCursors] = useState<Cursor[]>([first]);
  const page = cursors.length - 1;
  return {
    /** Zero-based, as the Pager counts. */
    page,
    cursor: cursors[page] as Cursor,
    /** Back to a page seen before, or on to the next one, which starts at `next()` (the shown page's last cursor). */
    pageTo: (n: number, next: () => Cursor) =>
      setCursors((seen) => (n < seen.length - 1 ? seen.slice(0, n + 1) : [...seen, next()])),
    /** Back to the first page (the filters changed). */
    reset: () => setCursors([first]),
  };
}
