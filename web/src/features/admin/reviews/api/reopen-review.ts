import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

/** Put a rejected review back into moderation. */
export const reopenReview = (id: string) =>
  api<DetailAnswer>(`/admin/reviews/${id}/reopen`, { method: 'POST', fallback: 'Failed to reopen review' });

export const useReopenReview = () => useAdminMutation(reopenReview);
