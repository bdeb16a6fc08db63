import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** A review as moderators see it. */
export interface ModeratedReview {
  id: string;
  name: string;
  email: string | null;
  country: string;
  rating: number;
  text: string;
  escrow_id: string | null;
  created_at: string;
  updated_at: string;
  edited_by_admin: boolean;
  verified_deal: boolean;
  status: string;
  admin_edit_note: string | null;
  rejection_reason: string | null;
}

export const getPendingReviews = (signal?: AbortSignal) => api<ModeratedReview[]>('/admin/reviews/pending', signal ? { signal } : {});

export const pendingReviewsQueryOptions = () => queryOptions({ queryKey: [ADMIN_KEY, 'reviews', 'pending'], queryFn: ({ signal }) => getPendingReviews(signal) });

/** Awaiting moderation, oldest first. */
export const usePendingReviews = () => useQuery(pendingReviewsQueryOptions());
