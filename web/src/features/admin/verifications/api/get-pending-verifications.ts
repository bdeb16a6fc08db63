import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';
import type { Evidence } from '../../shared/evidence-list.tsx';

export interface PendingVerification {
  escrow: {
    id: string;
    product_service: string;
    description: string;
    amount_btc: number;
    amount_sats: number;
    total_usd: number;
    assigned_address: string | null;
    buyer_email: string;
    seller_email: string;
  };
  notes: string;
  marked_at: string;
  evidence: Evidence[];
}

export const getPendingVerifications = (signal?: AbortSignal) => api<PendingVerification[]>('/admin/pending-verifications', signal ? { signal } : {});

export const pendingVerificationsQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'pending-verifications'], queryFn: ({ signal }) => getPendingVerifications(signal) });

export const usePendingVerifications = () => useQuery(pendingVerificationsQueryOptions());
