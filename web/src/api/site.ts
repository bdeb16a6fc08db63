import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';
import type { Rate } from '../../../contract/pricing.ts';
import type { SiteInfo } from '../../../contract/site.ts';

/** Support e-mail and hours: one configured value, shown the same on every page. */
export const useSiteInfo = () =>
  useQuery({ queryKey: ['site'], queryFn: ({ signal }) => api<SiteInfo>('/site', { signal }), staleTime: Infinity });

/** The fee and rate in force (the rate may not be set yet: then this errors with the server's detail). */
export const usePricing = () =>
  useQuery({
    queryKey: ['pricing'],
    queryFn: ({ signal }) => api<Rate>('/btc-rate', { signal }),
    staleTime: 60_000,
    retry: false,
  });
