import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';

/** Mails the signed-in user a new e-mail verification link. */
export const useResendVerification = () =>
  useMutation({
    mutationFn: () =>
      api<{ detail?: string }>('/auth/resend-verification', {
        method: 'POST',
        fallback: 'Failed to send the link again',
      }),
  });
