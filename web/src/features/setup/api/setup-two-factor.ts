import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { twoFactorSecretSchema } from '../../../../../contract/users.ts';
import { api } from '../../../api/client.ts';

/** The answer of POST /api/auth/setup-2fa: the secret, and its QR code drawn by the server (a data: URL). */
export type TwoFactorSecret = z.infer<typeof twoFactorSecretSchema>;

export const setupTwoFactor = () => api<TwoFactorSecret>('/auth/setup-2fa', { method: 'POST', fallback: 'Failed to setup 2FA' });

export const useSetupTwoFactor = () => useMutation({ mutationFn: setupTwoFactor });
