import { useEscrowMutation } from './escrow-mutation.ts';

/** Cancel: the creator ends an escrow nobody has marked as paid. */
export const useCancelEscrow = (id: string) =>
  useEscrowMutation<void>(id, () => ({ path: '/cancel', fallback: 'Failed to cancel escrow' }));
