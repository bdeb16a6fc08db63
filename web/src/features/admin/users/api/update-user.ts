import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

export interface UpdateUserInput {
  id: string;
  full_name: string;
  email: string;
  role: string;
  totp_code: string;
}

/** Spec: only the non-empty fields among full_name, email and role are sent. */
export const updateUserFields = ({ full_name, email, role }: Pick<UpdateUserInput, 'full_name' | 'email' | 'role'>) =>
  Object.fromEntries(Object.entries({ full_name: full_name.trim(), email: email.trim(), role }).filter(([, v]) => v !== ''));

export const updateUser = (input: UpdateUserInput) =>
  api<DetailAnswer>(`/admin/users/${input.id}`, { method: 'PUT', form: withCode(updateUserFields(input), input.totp_code), fallback: 'Failed to update user' });

export const useUpdateUser = () => useAdminMutation(updateUser);
