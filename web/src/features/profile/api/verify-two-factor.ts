import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { twoFactorEnabledSchema } from '../../../../../contract/users.ts';
import { api } from '../../../api/client.ts';
import { meQueryKey } from '../../../auth/auth-context.tsx';

/** The answer of POST /api/auth/verify-2fa: the recovery codes, shown this once (the server keeps only hashes). */
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabledSchema>;

export const verifyTwoFactor = (code: string) =>
  api<TwoFactorEnabled>('/auth/verify-2fa', { method: 'POST', form: { totp_code: code }, fallback: 'Invalid 2FA code' });

/** Switches 2FA on with a code from the new secret; the server signs the user's other sessions out. */
export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: verifyTwoFactor, onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }) });
}
