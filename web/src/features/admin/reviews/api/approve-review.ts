import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

/** Publish a pending review. */
export const approveReview = (id: string) =>
  api<DetailAnswer>(`/admin/reviews/${id}/approve`, { method: 'POST', fallback: 'Failed to approve review' });

export const useApproveReview = () => useAdminMutation(approveReview);
