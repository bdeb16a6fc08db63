import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { twoFactorEnabledSchema } from '../../../../../contract/users.ts';
import { api } from '../../../api/client.ts';
import { meQueryKey } from '../../../auth/auth-context.tsx';

/** The answer of POST /api/auth/verify-2fa: recovery codes, shown this once. */
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabledSchema>;

export const verifyTwoFactor = (code: string) =>
  api<TwoFactorEnabled>('/auth/verify-2fa', { method: 'POST', form: { totp_code: code }, fallback: 'Invalid 2FA code' });

export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: verifyTwoFactor, onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }) });
}
