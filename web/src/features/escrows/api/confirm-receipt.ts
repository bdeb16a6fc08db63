import { useEscrowMutation } from './escrow-mutation.ts';

/** Confirm Receipt: the buyer says they have what they paid for. */
export const useConfirmReceipt = (id: string) =>
  useEscrowMutation<void>(id, () => ({ path: '/confirm-receipt', fallback: 'Failed to confirm receipt' }));
