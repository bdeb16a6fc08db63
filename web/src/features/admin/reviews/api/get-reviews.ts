import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';
import type { ModeratedReview } from './get-pending-reviews.ts';

export const getReviews = (signal?: AbortSignal) => api<ModeratedReview[]>('/admin/reviews', signal ? { signal } : {});

export const reviewsQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'reviews', 'all'], queryFn: ({ signal }) => getReviews(signal) });

/** Every review, newest first. */
export const useReviews = () => useQuery(reviewsQueryOptions());
