import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { twoFactorSecretSchema } from '../../../../../contract/users.ts';
import { api } from '../../../api/client.ts';

/** The answer of POST /api/auth/setup-2fa: the secret, and a QR code of its otpauth URI drawn by the server (a data: URL). */
export type TwoFactorSetup = z.infer<typeof twoFactorSecretSchema>;

export const setupTwoFactor = () => api<TwoFactorSetup>('/auth/setup-2fa', { method: 'POST', fallback: 'Failed to setup 2FA' });

/** Draws a new secret (replacing an unconfirmed one); 2FA is on only once a code from it is verified. */
export const useSetupTwoFactor = () => useMutation({ mutationFn: setupTwoFactor });
