import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import { useApproveReview } from './api/approve-review.ts';
import { type ModeratedReview, usePendingReviews } from './api/get-pending-reviews.ts';
import { useReviews } from './api/get-reviews.ts';
import { useReopenReview } from './api/reopen-review.ts';
import { DeleteReviewDialog, EditReviewDialog, RejectReviewDialog } from './components/review-dialogs.tsx';
import { ReviewItem } from './components/review-item.tsx';

type Dialog = 'edit' | 'reject' | 'delete';

/** A titled list of reviews with its count, each with the moderation buttons that fit it. */
function ReviewSection({
  id,
  title,
  query,
  empty,
  actions,
}: {
  id: string;
  title: string;
  query: UseQueryResult<ModeratedReview[]>;
  empty: string;
  actions: (review: ModeratedReview) => ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>
        {title} ({query.data?.length ?? 0})
      </h3>
      <QueryState
        query={query}
        errorFallback="Failed to load reviews"
        isEmpty={(list) => list.length === 0}
        empty={empty}
      >
        {(list) => (
          <ul className="card-list">
            {list.map((r) => (
              <ReviewItem key={r.id} review={r} actions={actions(r)} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

/** Reviews: the spec's 'Pending Reviews (count)' to moderate and 'All Reviews (count)'. */
export function ReviewsPanel() {
  const pending = usePendingReviews();
  const all = useReviews();
  const approve = useApproveReview();
  const reopen = useReopenReview();
  const [open, setOpen] = useState<{ dialog: Dialog; review: ModeratedReview } | null>(null);
  const { notice, success, failure } = useNotice();
  const target = (dialog: Dialog) => (open?.dialog === dialog ? open.review : null);
  const act = (call: Promise<unknown>, done: string, fallback: string) =>
    call.then(
      () => success(done),
      (error: unknown) => failure(messageOf(error, fallback)),
    );
  return (
    <>
      <PanelHead title="Reviews">Reviews wait here until approved. Only approved and edited ones are public.</PanelHead>
      <NoticeLine notice={notice} />
      <ReviewSection
        id="pending-reviews"
        title="Pending Reviews"
        query={pending}
        empty="No pending reviews"
        actions={(r) => (
          <>
            <Button
              busy={approve.isPending && approve.variables === r.id}
              onClick={() => void act(approve.mutateAsync(r.id), 'Review approved', 'Failed to approve review')}
            >
              Approve
            </Button>
            <Button variant="secondary" onClick={() => setOpen({ dialog: 'edit', review: r })}>
              Edit & Approve
            </Button>
            <Button variant="danger" onClick={() => setOpen({ dialog: 'reject', review: r })}>
              Reject
            </Button>
          </>
        )}
      />
      <ReviewSection
        id="all-reviews"
        title="All Reviews"
        query={all}
        empty="No reviews yet."
        actions={(r) => (
          <>
            {r.status === 'rejected' && (
              <Button
                variant="secondary"
                busy={reopen.isPending && reopen.variables === r.id}
                onClick={() => void act(reopen.mutateAsync(r.id), 'Review reopened', 'Failed to reopen review')}
              >
                Reopen
              </Button>
            )}
            <Button
              variant="danger"
              onClick={() => setOpen({ dialog: 'delete', review: r })}
              aria-label={`Delete the review by ${r.name}`}
            >
              Delete
            </Button>
          </>
        )}
      />
      <EditReviewDialog review={target('edit')} onClose={() => setOpen(null)} onDone={success} />
      <RejectReviewDialog review={target('reject')} onClose={() => setOpen(null)} onDone={success} />
      <DeleteReviewDialog review={target('delete')} onClose={() => setOpen(null)} onDone={success} />
    </>
  );
}
