import { lazy, startTransition, Suspense, useOptimistic, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ReviewCard } from '../components/review-card.tsx';
import { ReviewStatsCard } from '../components/review-stats-card.tsx';
import { PAGE_SIZE, type ReviewFilters, useReviewCountries, useReviews } from '../api/use-reviews.ts';

// The form (react-hook-form and the shared zod schemas) downloads only when someone opens it.
const WriteReviewDialog = lazy(async () => ({
  default: (await import('../components/write-review-dialog.tsx')).WriteReviewDialog,
}));

const SORTS = ['newest', 'oldest', 'highest'] as const;
const MIN_RATINGS = [
  ['all', 'All ratings'],
  ['4.5', '4.5+'],
  ['4', '4.0+'],
  ['3.5', '3.5+'],
] as const;

/**
 * Filters live in the address, so a filtered page can be shared and survives a reload. The router changes the address
 * in a transition; until it commits, the filters show the choice just made (else a busy browser undoes it a moment).
 */
function useFilters(): [ReviewFilters, (next: Partial<ReviewFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort');
  const filters: ReviewFilters = {
    country: params.get('country') ?? 'all',
    minRating: params.get('min_rating') ?? 'all',
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as ReviewFilters['sort']) : 'newest',
    skip: Math.max(0, Number(params.get('skip')) || 0),
  };
  const [shown, show] = useOptimistic(filters);
  const update = (next: Partial<ReviewFilters>) => {
    const merged = { ...shown, skip: 0, ...next };
    const out = new URLSearchParams();
    if (merged.country !== 'all') out.set('country', merged.country);
    if (merged.minRating !== 'all') out.set('min_rating', merged.minRating);
    if (merged.sort !== 'newest') out.set('sort', merged.sort);
    if (merged.skip) out.set('skip', String(merged.skip));
    startTransition(() => {
      show(merged);
      setParams(out, { replace: true });
    });
  };
  return [shown, update];
}

export function ReviewsPage() {
  usePageMeta(
    'Customer reviews',
    'What buyers and sellers say about their Bitcoin escrow deals with us.',
    'bitcoin escrow reviews, escrow ratings',
  );
  const [filters, setFilters] = useFilters();
  // `?review=ESCROW_ID` (the link a finished escrow's page and mail give) opens the form about that deal.
  const [params] = useSearchParams();
  const [aboutEscrow] = useState(() => params.get('review') ?? '');
  const [writing, setWriting] = useState(aboutEscrow !== '');
  const reviews = useReviews(filters);
  const countries = useReviewCountries();
  const page = reviews.data ?? [];

  return (
    <article>
      <div className="page-head">
        <div>
          <p className="eyebrow">Reviews</p>
          <h1>What our users say</h1>
        </div>
        <Button onClick={() => setWriting(true)}>Write a Review</Button>
      </div>
      <ReviewStatsCard />

      <form className="filters" aria-label="Filter reviews" onSubmit={(e) => e.preventDefault()}>
        <label>
          Country
          <select value={filters.country} onChange={(e) => setFilters({ country: e.target.value })}>
            <option value="all">All countries</option>
            {(countries.data ?? []).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          Minimum rating
          <select value={filters.minRating} onChange={(e) => setFilters({ minRating: e.target.value })}>
            {MIN_RATINGS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort by
          <select value={filters.sort} onChange={(e) => setFilters({ sort: e.target.value as ReviewFilters['sort'] })}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
            <option value="highest">Highest rated</option>
          </select>
        </label>
      </form>

      <QueryState
        query={reviews}
        loadingLabel="Loading reviews..."
        isEmpty={(found) => found.length === 0}
        empty="No reviews found matching your filters."
      >
        {(found) => (
          <ul className="grid grid-2 review-list" aria-busy={reviews.isFetching || undefined}>
            {found.map((review) => (
              <li key={review.id}>
                <ReviewCard review={review} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>

      <nav className="pager" aria-label="Review pages">
        {filters.skip > 0 && (
          <Button
            variant="secondary"
            onClick={() => setFilters({ ...filters, skip: Math.max(0, filters.skip - PAGE_SIZE) })}
          >
            Previous
          </Button>
        )}
        {page.length === PAGE_SIZE && (
          <Button variant="secondary" onClick={() => setFilters({ ...filters, skip: filters.skip + PAGE_SIZE })}>
            Next
          </Button>
        )}
      </nav>
      {writing && (
        <Suspense fallback={null}>
          <WriteReviewDialog open onOpenChange={setWriting} escrowId={aboutEscrow} />
        </Suspense>
      )}
    </article>
  );
}
