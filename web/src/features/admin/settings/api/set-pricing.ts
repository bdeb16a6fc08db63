import type { z } from 'zod';
import type { setPricingSchema } from '../../../../../../contract/pricing-requests.ts';
import { api } from '../../../../api/client.ts';
import { useAdminMutation, withCode } from '../../shared/admin-mutation.ts';
import type { Pricing } from './get-pricing.ts';

/** The pricing form's values for PUT /api/admin/btc-rate, as typed; an empty fee keeps the fee in force. */
export type SetPricingInput = Required<z.input<typeof setPricingSchema>> & { totp_code: string };

export const setPricing = ({ btc_usd_rate, fee_percentage, totp_code }: SetPricingInput) =>
  api<Pricing>('/admin/btc-rate', {
    method: 'PUT',
    form: withCode(fee_percentage ? { btc_usd_rate, fee_percentage } : { btc_usd_rate }, totp_code),
    fallback: 'Failed to set the rate',
  });

export const useSetPricing = () => useAdminMutation(setPricing);
