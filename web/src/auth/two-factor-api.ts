import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { recoveryCodesSchema, twoFactorEnabledSchema, twoFactorSecretSchema } from '../../../contract/users.ts';
import { api } from '../api/client.ts';
import { meQueryKey } from './auth-context.tsx';

/** The 2FA calls of the signed-in user, shared by the profile page and the first admin's setup. */

/** The answer of POST /api/auth/setup-2fa: the secret, and a QR code of its otpauth URI drawn by the server (a data: URL). */
export type TwoFactorSetup = z.infer<typeof twoFactorSecretSchema>;
/** The answer of POST /api/auth/verify-2fa: the recovery codes, shown this once (the server keeps only hashes). */
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabledSchema>;

export const setupTwoFactor = () =>
  api<TwoFactorSetup>('/auth/setup-2fa', { method: 'POST', fallback: 'Failed to setup 2FA' });

/** POST /api/auth/verify-2fa (form totp_code). */
export const verifyTwoFactor = (code: string) =>
  api<TwoFactorEnabled>('/auth/verify-2fa', {
    method: 'POST',
    form: { totp_code: code },
    fallback: 'Invalid 2FA code',
  });

/** POST /api/auth/disable-2fa (form totp_code: a current code or a recovery code). */
export const disableTwoFactor = (code: string) =>
  api<{ detail: string }>('/auth/disable-2fa', {
    method: 'POST',
    form: { totp_code: code },
    fallback: 'Failed to disable 2FA',
  });

/** The answer of POST /api/auth/recovery-codes: new codes in place of all the old ones, shown this once. */
export type NewRecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** POST /api/auth/recovery-codes (form totp_code: a current code from the authenticator app). */
export const regenerateRecoveryCodes = (code: string) =>
  api<NewRecoveryCodes>('/auth/recovery-codes', {
    method: 'POST',
    form: { totp_code: code },
    fallback: 'Failed to make new recovery codes',
  });

/** Draws a new secret (replacing an unconfirmed one); 2FA is on only once a code from it is verified. */
export const useSetupTwoFactor = () => useMutation({ mutationFn: setupTwoFactor });

/** Switches 2FA on with a code from the new secret; the server signs the user's other sessions out. */
export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** Switches 2FA off; the secret and the recovery codes are destroyed and the other sessions signed out. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** Replaces the recovery codes; the profile's count of codes left comes back to the full set. */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}
