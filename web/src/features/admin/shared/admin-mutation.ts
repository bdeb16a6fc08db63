import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageSchema } from '../../../../../contract/errors.ts';

/** Every console query key starts here, so one invalidation after an action refreshes every list and tab count. */
export const ADMIN_KEY = 'admin';

/** A message answer (`{detail}`) of the admin calls that do not return the changed object: the API's answer schema. */
export type DetailAnswer = z.infer<typeof messageSchema>;

/**
 * A console action: runs `call`, then refreshes every console list (the tab counts included), since an action in one
 * panel often changes another (a verified payment leaves the queue and funds an escrow).
 */
export function useAdminMutation<V, R>(call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

/** The form fields of an admin power, with the 2FA code when the admin typed one (the server asks when 2FA is on). */
export function withCode(fields: Record<string, string>, totpCode?: string | null): Record<string, string> {
  return totpCode ? { ...fields, totp_code: totpCode } : fields;
}
