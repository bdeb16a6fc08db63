import type { z } from 'zod';
import type { editReviewSchema } from '../../../../../../contract/admin-review-requests.ts';
import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

/** Replace the text (the original stays in the log), note why for other admins, and publish. */
export const editReview = ({
  id,
  edited_text,
  admin_note,
}: Required<z.input<typeof editReviewSchema>> & { id: string }) =>
  api<DetailAnswer>(`/admin/reviews/${id}/edit`, {
    form: { edited_text, admin_note },
    fallback: 'Failed to edit review',
  });

export const useEditReview = () => useAdminMutation(editReview);
