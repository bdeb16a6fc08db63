import type { ReactNode } from 'react';
import { Stars } from '../../../../components/ui/stars.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import type { ModeratedReview } from '../api/get-pending-reviews.ts';

const KNOWN = new Set(['approved', 'edited_by_admin', 'rejected']);

/** A review as moderators see it: status, rating, text, time, optional e-mail and escrow, admin note, rejection reason. */
export function ReviewItem({ review, actions }: { review: ModeratedReview; actions: ReactNode }) {
  return (
    <li className="card review-item">
      <div className="verification-head">
        <div>
          <strong>{review.name}</strong> <span className="muted">· {review.country}</span>
        </div>
        <span className={`badge badge-review-${KNOWN.has(review.status) ? review.status : 'pending'}`}>
          {review.status.replace(/_/g, ' ')}
        </span>
      </div>
      <Stars rating={review.rating} size="sm" />
      <p className="review-text">{review.text}</p>
      <p className="small muted">
        {formatDateTime(review.created_at)}
        {review.email && <> · {review.email}</>}
        {review.escrow_id && (
          <>
            {' '}
            · <EscrowLink id={review.escrow_id}>Escrow {review.escrow_id.slice(0, 8)}</EscrowLink>
          </>
        )}
        {review.verified_deal && ' · verified deal'}
      </p>
      {review.admin_edit_note && <p className="small">Admin note: {review.admin_edit_note}</p>}
      {review.rejection_reason && <p className="small">Rejection reason: {review.rejection_reason}</p>}
      <div className="row-actions">{actions}</div>
    </li>
  );
}
