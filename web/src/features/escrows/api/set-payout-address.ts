import type { z } from 'zod';
import type { payoutAddressSchema } from '../../../../../contract/escrow-requests.ts';
import { useEscrowMutation } from './escrow-mutation.ts';

/** The seller's payout or the buyer's refund address; a 2FA code where replacing one needs it. */
export const useSetPayoutAddress = (id: string) =>
  useEscrowMutation<z.input<typeof payoutAddressSchema>>(id, (json) => ({
    path: '/payout-address',
    json,
    fallback: 'Failed to save the address',
  }));
