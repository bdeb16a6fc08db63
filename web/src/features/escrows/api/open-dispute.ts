import { useEscrowMutation } from './escrow-mutation.ts';

/** Open Dispute, with its required reason. */
export const useOpenDispute = (id: string) => useEscrowMutation<{ reason: string }>(id, (json) => ({ path: '/open-dispute', json, fallback: 'Failed to open dispute' }));
