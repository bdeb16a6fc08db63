import type { z } from 'zod';
import type { openDisputeSchema } from '../../../../../contract/escrow-requests.ts';
import { useEscrowMutation } from './escrow-mutation.ts';

/** Open Dispute, with its required reason. */
export const useOpenDispute = (id: string) =>
  useEscrowMutation<z.input<typeof openDisputeSchema>>(id, (json) => ({
    path: '/open-dispute',
    json,
    fallback: 'Failed to open dispute',
  }));
