import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { Pricing } from './get-pricing.ts';

export interface SetPricingInput {
  btc_usd_rate: string;
  /** Empty keeps the fee in force. */
  fee_percentage: string;
  totp_code: string;
}

export const setPricing = ({ btc_usd_rate, fee_percentage, totp_code }: SetPricingInput) =>
  api<Pricing>('/admin/btc-rate', {
    method: 'PUT',
    form: withCode(fee_percentage ? { btc_usd_rate, fee_percentage } : { btc_usd_rate }, totp_code),
    fallback: 'Failed to set the rate',
  });

export const useSetPricing = () => useAdminMutation(setPricing);
