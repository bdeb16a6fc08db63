import { useEscrowMutation } from './escrow-mutation.ts';

/** Make Payment: the buyer asks for a payment address from the pool. */
export const useRequestPayment = (id: string) =>
  useEscrowMutation<void>(id, () => ({ path: '/request-payment', fallback: 'Failed to request payment address' }));
