import type { z } from 'zod';
import type { resolveDisputeSchema } from '../../../../../../contract/admin-escrow-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

type ResolveFields = z.input<typeof resolveDisputeSchema>;

/** Empty: no money moves; the escrow goes back to the status it had. */
export type Resolution = NonNullable<ResolveFields['resolution']> | '';

/**
 * The resolution dialog's values for POST /api/admin/disputes/{id}/resolve: `expected_address` is the seller's payout
 * address shown (release, split) or the buyer's refund address (refund), `expected_refund_address` the buyer's refund
 * address shown, for a split; the percent is a number once the dialog has checked it (the form sends its digits).
 */
export type ResolveInput = Required<Omit<ResolveFields, 'resolution' | 'seller_percent'>> & {
  disputeId: string;
  resolution: Resolution;
  seller_percent: NonNullable<z.infer<typeof resolveDisputeSchema>['seller_percent']>;
};

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
  api<Record<string, unknown>>(`/admin/disputes/${input.disputeId}/resolve`, {
    form: resolveForm(input),
    fallback: 'Failed to resolve dispute',
  });

export const useResolveDispute = () => useAdminMutation(resolveDispute);
