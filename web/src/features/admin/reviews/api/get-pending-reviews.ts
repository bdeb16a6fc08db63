import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminReview } from '../../../../../../contract/reviews.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** A review as moderators see it: the API's answer schema. */
export type ModeratedReview = AdminReview;

export const getPendingReviews = (signal?: AbortSignal) =>
  api<ModeratedReview[]>('/admin/reviews/pending', signal ? { signal } : {});

export const pendingReviewsQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'reviews', 'pending'], queryFn: ({ signal }) => getPendingReviews(signal) });

/** Awaiting moderation, oldest first. */
export const usePendingReviews = () => useQuery(pendingReviewsQueryOptions());
