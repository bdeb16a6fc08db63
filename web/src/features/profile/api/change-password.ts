import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import type { changePasswordSchema } from '../../../../../contract/user-requests.ts';
import { useAuth } from '../../../auth/auth-context.tsx';

export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** POST /api/auth/change-password (JSON current_password, new_password); the server signs the other sessions out. */
export const changePassword = (input: ChangePasswordInput) =>
  api<{ detail: string }>('/auth/change-password', {
    method: 'POST',
    json: input,
    fallback: 'Failed to change password',
  });

/** Changes the password; a session held to the change-password form (an admin reset it) works fully again after. */
export function useChangePassword() {
  const { passwordChanged } = useAuth();
  return useMutation({ mutationFn: changePassword, onSuccess: passwordChanged });
}
