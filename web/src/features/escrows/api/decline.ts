import { useEscrowMutation } from './escrow-mutation.ts';

/** The counterparty declines the terms, with a reason both sides and the admins read (contract 7.1). */
export const useDecline = (id: string) =>
  useEscrowMutation<{ reason: string }>(id, (json) => ({ path: '/decline', json, fallback: 'Failed to decline' }));
