import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export type EscrowStatus = 'pending_payment' | 'funded' | 'released' | 'disputed' | 'frozen' | 'cancelled' | 'refunded';

/** An escrow as admins see it (GET /api/escrows/{id}, and each item of GET /api/admin/escrows). */
export interface AdminEscrow {
  id: string;
  product_service: string;
  description: string;
  amount_usd: number;
  escrow_fee: number;
  total_usd: number;
  fee_percentage: number;
  btc_usd_rate: number;
  amount_btc: number;
  amount_sats: number;
  status: EscrowStatus;
  buyer_email: string;
  seller_email: string;
  created_by: string;
  creator_side: 'buyer' | 'seller';
  assigned_address: string | null;
  deadline_days: number;
  payment_due_at: string | null;
  payment_marked_at: string | null;
  buyer_confirmed_at: string | null;
  payout_address: string | null;
  refund_address: string | null;
  payout_address_held_until?: string | null;
  refund_address_held_until?: string | null;
  payment_txid: string | null;
  payout_txid: string | null;
  seller_sats: number | null;
  buyer_sats: number | null;
  fee_sats: number | null;
  created_at: string;
  updated_at: string;
}

export const getEscrow = (id: string, signal?: AbortSignal) => api<AdminEscrow>(`/escrows/${id}`, signal ? { signal } : {});

export const escrowQueryOptions = (id: string) => queryOptions({ queryKey: [ADMIN_KEY, 'escrow', id], queryFn: ({ signal }) => getEscrow(id, signal) });

export const useEscrow = (id: string) => useQuery(escrowQueryOptions(id));
