import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

export const rejectReview = ({ id, reason }: { id: string; reason: string }) =>
  api<DetailAnswer>(`/admin/reviews/${id}/reject`, { form: { reason }, fallback: 'Failed to reject review' });

export const useRejectReview = () => useAdminMutation(rejectReview);
