import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export type Resolution = '' | 'release' | 'refund' | 'split';

export interface ResolveInput {
  disputeId: string;
  outcome: string;
  /** Empty: no money moves; the escrow goes back to the status it had. */
  resolution: Resolution;
  seller_percent: number;
  txid: string;
  /** The seller's payout address shown (release, split) or the buyer's refund address (refund). */
  expected_address: string;
  /** The buyer's refund address shown, for a split. */
  expected_refund_address: string;
  totp_code: string;
}

export function resolveForm(input: ResolveInput): Record<string, string> {
  const fields: Record<string, string> = { outcome: input.outcome.trim() };
  if (input.resolution) {
    fields.resolution = input.resolution;
    fields.expected_address = input.expected_address;
    if (input.resolution === 'split') {
      fields.seller_percent = String(input.seller_percent);
      fields.expected_refund_address = input.expected_refund_address;
    }
    if (input.txid.trim()) fields.txid = input.txid.trim();
  }
  return withCode(fields, input.totp_code);
}

export const resolveDispute = (input: ResolveInput) =>
  api<Record<string, unknown>>(`/admin/disputes/${input.disputeId}/resolve`, { form: resolveForm(input), fallback: 'Failed to resolve dispute' });

export const useResolveDispute = () => useAdminMutation(resolveDispute);
