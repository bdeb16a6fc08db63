import { Button } from './button.tsx';

interface PagerProps {
  /** Zero-based. */
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  label?: string;
}

/** Previous / Next for a list paged on the server; shows nothing when there is only one page. */
export function Pager({ page, hasNext, onPage, label = 'Pages' }: PagerProps) {
  if (page === 0 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="pager-page">Page {page + 1}</span>
      <Button variant="secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
