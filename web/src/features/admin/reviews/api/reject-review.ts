import type { z } from 'zod';
import type { rejectReviewSchema } from '../../../../../../contract/admin-review-requests.ts';
import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation } from '../../shared/admin-mutation.ts';

export const rejectReview = ({ id, reason }: Required<z.input<typeof rejectReviewSchema>> & { id: string }) =>
  api<DetailAnswer>(`/admin/reviews/${id}/reject`, { form: { reason }, fallback: 'Failed to reject review' });

export const useRejectReview = () => useAdminMutation(rejectReview);
