import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

export const deleteReview = (id: string) =>
  api<DetailAnswer>(`/admin/reviews/${id}`, { method: 'DELETE', fallback: 'Failed to delete review' });

export const useDeleteReview = () => useAdminMutation(deleteReview);
