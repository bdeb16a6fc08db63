import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import type { PublicReview, ReviewStats } from '../../../../../contract/reviews.ts';

export const PAGE_SIZE = 20;

export interface ReviewFilters {
  country: string;
  minRating: string;
  sort: 'newest' | 'oldest' | 'highest';
  skip: number;
}

export function reviewsPath(f: ReviewFilters): string {
  const params = new URLSearchParams({ skip: String(f.skip), limit: String(PAGE_SIZE), sort: f.sort });
  if (f.country !== 'all') params.set('country', f.country);
  if (f.minRating !== 'all') params.set('min_rating', f.minRating);
  return `/reviews?${params}`;
}

export const useReviews = (f: ReviewFilters) =>
  useQuery({
    queryKey: ['reviews', f],
    queryFn: ({ signal }) => api<PublicReview[]>(reviewsPath(f), { signal }),
    placeholderData: keepPreviousData,
  });

export const useReviewStats = () =>
  useQuery({ queryKey: ['reviews', 'stats'], queryFn: ({ signal }) => api<ReviewStats>('/reviews/stats', { signal }) });

export const useReviewCountries = () =>
  useQuery({
    queryKey: ['reviews', 'countries'],
    queryFn: ({ signal }) => api<string[]>('/reviews/countries', { signal }),
    staleTime: 5 * 60_000,
  });
