import { useEscrowMutation } from './escrow-mutation.ts';

/** The buyer has the goods: the inspection period starts (contract 7.3). */
export const useReceive = (id: string) =>
  useEscrowMutation<void>(id, () => ({ path: '/receive', fallback: 'Failed to mark as received' }));
