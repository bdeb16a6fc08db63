import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type CallOptions } from '../../../api/client.ts';
import type { Escrow, EscrowDetail } from './types.ts';

/**
 * A party's action on one escrow: the server answers the escrow after it, which is put in the cache at once; the
 * list and the timeline are read again (the evidence files shown meanwhile are the ones before it).
 */
export function useEscrowMutation<V>(id: string, call: (variables: V) => { path: string } & CallOptions) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => {
      const { path, ...options } = call(variables);
      return api<Escrow>(`/escrows/${encodeURIComponent(id)}${path}`, { method: 'POST', ...options });
    },
    onSuccess: async (escrow) => {
      queryClient.setQueryData<EscrowDetail>(['escrows', id], (before) => ({ evidence: [], ...before, ...escrow }));
      await queryClient.invalidateQueries({ queryKey: ['escrows'] });
    },
  });
}
