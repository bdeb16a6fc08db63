import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { meQueryKey } from '../../../auth/auth-context.tsx';

/** POST /api/auth/disable-2fa (form totp_code: a current code or a recovery code). */
export const disableTwoFactor = (code: string) =>
  api<{ detail: string }>('/auth/disable-2fa', { method: 'POST', form: { totp_code: code }, fallback: 'Failed to disable 2FA' });

/** Switches 2FA off; the secret and the recovery codes are destroyed and the other sessions signed out. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }) });
}
