import { useEscrowMutation } from './escrow-mutation.ts';

/** The counterparty agrees to the terms as written (contract 7.1). */
export const useAgree = (id: string) =>
  useEscrowMutation<void>(id, () => ({ path: '/agree', fallback: 'Failed to agree to the terms' }));
