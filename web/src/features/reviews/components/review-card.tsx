import { BadgeCheck } from 'lucide-react';
import type { PublicReview } from '../../../../../contract/reviews.ts';
import { Stars } from '../../../components/ui/stars.tsx';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export function ReviewCard({ review }: { review: PublicReview }) {
  return (
    <article className="card review-card">
      <header className="review-head">
        <span className="avatar" aria-hidden="true">
          {initials(review.name)}
        </span>
        <div>
          <h3 className="review-name">
            {review.name}
            {review.verified_deal && (
              <span className="verified" title="Left after a completed escrow">
                <BadgeCheck size={16} aria-hidden="true" /> Verified deal
              </span>
            )}
          </h3>
          <p className="muted small">
            {review.country} ·{' '}
            <time dateTime={review.created_at}>{dateFormat.format(new Date(review.created_at))}</time>
          </p>
        </div>
        <Stars rating={review.rating} size="sm" />
      </header>
      <p className="review-text">{review.text}</p>
      {review.edited_by_admin && <p className="muted small">Edited by admin for clarity</p>}
    </article>
  );
}
