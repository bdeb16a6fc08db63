import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Rate } from '../../../../../../contract/pricing.ts';
import { ApiError, api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** The rate and fee in force: the API's answer schema. */
export type Pricing = Rate;

/** The rate and fee in force; null while no rate was ever set (the server answers 503 not_ready). */
export async function getPricing(signal?: AbortSignal): Promise<Pricing | null> {
  try {
    return await api<Pricing>('/btc-rate', signal ? { signal } : {});
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_ready') return null;
    throw error;
  }
}

export const pricingQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'pricing'], queryFn: ({ signal }) => getPricing(signal) });

export const usePricing = () => useQuery(pricingQueryOptions());
