import { REVIEW_RATINGS } from '../../../../../contract/review-requests.ts';
import { Stars } from '../../../components/ui/stars.tsx';
import { useReviewStats } from '../api/use-reviews.ts';

/** Average as stars, the total, and a bar per star count. */
export function ReviewStatsCard() {
  const stats = useReviewStats();
  if (stats.isPending) return <div className="card stats-card skeleton" aria-hidden="true" />;
  if (stats.isError) return null;
  const { average_rating, total, distribution } = stats.data;
  const rows = REVIEW_RATINGS.map((r) => ({ star: r.toFixed(1), count: distribution[r.toFixed(1)] ?? 0 }));
  return (
    <section className="card stats-card" aria-labelledby="stats-title">
      <h2 id="stats-title" className="visually-hidden">
        Rating summary
      </h2>
      <div className="stats-average">
        <p className="stats-number">{total ? average_rating.toFixed(1) : '–'}</p>
        <Stars rating={average_rating} size="lg" />
        <p className="muted">
          {total} {total === 1 ? 'review' : 'reviews'}
        </p>
      </div>
      <ul className="stats-bars">
        {rows.map(({ star, count }) => (
          <li key={star}>
            <span className="stats-label">{star} stars</span>
            <span className="bar" aria-hidden="true">
              <span className="bar-fill" style={{ width: total ? `${(count / total) * 100}%` : '0%' }} />
            </span>
            <span className="stats-count">{count}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
