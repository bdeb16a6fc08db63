import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { firstAdminCreatedSchema } from '../../../../../contract/setup.ts';
import type { firstAdminSchema } from '../../../../../contract/user-requests.ts';
import { api } from '../../../api/client.ts';

export type FirstAdminInput = z.input<typeof firstAdminSchema>;

/** The answer of POST /api/setup/admin: the new admin, signed in. */
export type FirstAdminCreated = z.infer<typeof firstAdminCreatedSchema>;

export const createFirstAdmin = (input: FirstAdminInput) =>
  api<FirstAdminCreated>('/setup/admin', { json: input, fallback: 'The admin account could not be created' });

/** Creates the first admin; the link then stops working, so its status is checked again. */
export function useCreateFirstAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFirstAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['setup-status'] }),
  });
}
