import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import { useDeleteReview } from '../api/delete-review.ts';
import { useEditReview } from '../api/edit-review.ts';
import type { ModeratedReview } from '../api/get-pending-reviews.ts';
import { useRejectReview } from '../api/reject-review.ts';

interface DialogProps {
  review: ModeratedReview | null;
  onClose: () => void;
  onDone: (message: string) => void;
}
const closer = (onClose: () => void) => (open: boolean) => !open && onClose();

/** Spec: Edit & Approve, a modal with Edited Text and an internal Admin Note; Save & Approve / Cancel. */
export function EditReviewDialog({ review, onClose, onDone }: DialogProps) {
  const [text, setText] = useResetState(review?.id, () => review?.text ?? '');
  const [note, setNote] = useResetState(review?.id, () => review?.admin_edit_note ?? '');
  const edit = useEditReview();
  return (
    <ActionDialog
      gated={false}
      open={review !== null}
      onOpenChange={closer(onClose)}
      title="Edit & Approve"
      description={review ? `Review by ${review.name}` : undefined}
      confirmLabel="Save & Approve"
      fallback="Failed to edit review"
      check={() => (text.trim() ? null : 'The edited text cannot be empty')}
      run={async () => {
        await edit.mutateAsync({ id: review!.id, edited_text: text, admin_note: note });
        return 'Review edited and approved';
      }}
      onDone={onDone}
    >
      <Field label="Edited Text" required hint={`${text.length}/1000`}>
        <textarea rows={5} value={text} onChange={(e) => setText(e.target.value)} maxLength={1000} />
      </Field>
      <Field label="Admin Note" hint="Internal: never shown to the public">
        <textarea rows={2} value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
      </Field>
    </ActionDialog>
  );
}

/** Spec: Reject asks for a reason; an empty one gives 'Please provide a rejection reason'. */
export function RejectReviewDialog({ review, onClose, onDone }: DialogProps) {
  const [reason, setReason] = useResetState(review?.id, () => '');
  const reject = useRejectReview();
  return (
    <ActionDialog
      gated={false}
      open={review !== null}
      onOpenChange={closer(onClose)}
      title="Reject this review?"
      description={review ? `Review by ${review.name}` : undefined}
      confirmLabel="Reject"
      tone="danger"
      fallback="Failed to reject review"
      check={() => (reason.trim() ? null : 'Please provide a rejection reason')}
      run={async () => {
        await reject.mutateAsync({ id: review!.id, reason: reason.trim() });
        return 'Review rejected';
      }}
      onDone={onDone}
    >
      <Field label="Rejection reason" required>
        <textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />
      </Field>
    </ActionDialog>
  );
}

/** Spec: 'Delete this review permanently? This action cannot be undone.' */
export function DeleteReviewDialog({ review, onClose, onDone }: DialogProps) {
  const remove = useDeleteReview();
  return (
    <ActionDialog
      gated={false}
      open={review !== null}
      onOpenChange={closer(onClose)}
      title="Delete review"
      description="Delete this review permanently? This action cannot be undone."
      confirmLabel="Delete"
      tone="danger"
      fallback="Failed to delete review"
      run={async () => {
        await remove.mutateAsync(review!.id);
        return 'Review deleted';
      }}
      onDone={onDone}
    >
      {review && <blockquote className="review-quote">{review.text}</blockquote>}
    </ActionDialog>
  );
}
