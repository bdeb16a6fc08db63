import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkBundle } from '../model/check-bundle.ts';
import { getEscrowProof } from './get-escrow-proof.ts';
import { getLogKey } from './get-log-key.ts';

/** A deal's proof bundle with the browser's own check of it against the key the log publishes. */
export const escrowProofQueryOptions = (escrowId: string, updatedAt: string) =>
  queryOptions({
    queryKey: ['escrows', escrowId, 'proof', updatedAt],
    queryFn: async ({ signal }) => {
      const [bundle, key] = await Promise.all([getEscrowProof(escrowId, signal), getLogKey(signal)]);
      return { bundle, key, check: checkBundle(bundle, key.vkey) };
    },
    staleTime: 60_000,
  });

export const useEscrowProof = (escrowId: string, updatedAt: string) =>
  useQuery(escrowProofQueryOptions(escrowId, updatedAt));
