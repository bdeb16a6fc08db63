import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createEscrowSchema } from '../../../../../contract/escrow-requests.ts';
import { api } from '../../../api/client.ts';
import type { Escrow } from './types.ts';

/** The create form's fields; `inspection_days` (contract 7.3) is read by servers that record the inspection period. */
export type CreateEscrowInput = z.input<typeof createEscrowSchema> & { inspection_days?: number };

export const createEscrow = (input: CreateEscrowInput) =>
  api<Escrow>('/escrows', { json: input, fallback: 'Failed to create escrow' });

/** Opens an escrow; the server fixes the fee, total and BTC amount, and gives a buyer an address when one is free. */
export function useCreateEscrow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEscrow,
    onSuccess: async (escrow) => {
      queryClient.setQueryData(['escrows', escrow.id], { ...escrow, evidence: [] });
      await queryClient.invalidateQueries({ queryKey: ['escrows'], exact: true });
    },
  });
}
