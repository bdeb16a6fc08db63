import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { meQueryKey } from '../../../auth/auth-context.tsx';

/** The answer of POST /api/auth/verify-2fa: recovery codes, shown this once. */
export interface TwoFactorEnabled {
  detail: string;
  recovery_codes: string[];
}

export const verifyTwoFactor = (code: string) =>
  api<TwoFactorEnabled>('/auth/verify-2fa', { method: 'POST', form: { totp_code: code }, fallback: 'Invalid 2FA code' });

export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: verifyTwoFactor, onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }) });
}
