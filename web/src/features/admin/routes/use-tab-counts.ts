import { useAddresses } from '../addresses/api/get-addresses.ts';
import { useDisputes } from '../disputes/api/get-disputes.ts';
import { useReadyToReleaseCount } from '../escrows/api/get-escrows.ts';
import { usePendingReviews } from '../reviews/api/get-pending-reviews.ts';
import { usePendingVerifications } from '../verifications/api/get-pending-verifications.ts';
import { type AdminTab, LOW_POOL } from './admin-tabs.ts';

/**
 * What waits for an admin, per tab: payments to check, escrows ready to release, open disputes, reviews to moderate,
 * and a pool running low.
 */
export function useTabCounts(): Partial<Record<AdminTab, { count: number; label: string }>> {
  const verifications = usePendingVerifications();
  const disputes = useDisputes();
  const reviews = usePendingReviews();
  const addresses = useAddresses();
  const ready = useReadyToReleaseCount();
  const counts: Partial<Record<AdminTab, { count: number; label: string }>> = {};
  if (verifications.data?.length)
    counts.verifications = { count: verifications.data.length, label: 'payments to verify' };
  if (ready.data) counts.escrows = { count: ready.data, label: 'escrows ready to release' };
  const open = disputes.data?.filter((d) => d.status === 'open').length ?? 0;
  if (open) counts.disputes = { count: open, label: 'open disputes' };
  if (reviews.data?.length) counts.reviews = { count: reviews.data.length, label: 'reviews to moderate' };
  const free = addresses.data?.filter((a) => a.status === 'available').length;
  if (free !== undefined && free < LOW_POOL)
    counts.addresses = { count: free, label: 'free addresses: the pool is low' };
  return counts;
}
