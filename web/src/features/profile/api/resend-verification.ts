import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';

/** POST /api/auth/resend-verification: mails a new link to the account's address. */
export const resendVerification = () =>
  api<{ detail: string }>('/auth/resend-verification', {
    method: 'POST',
    fallback: 'Failed to send the verification mail',
  });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
