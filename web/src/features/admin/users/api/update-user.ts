import type { z } from 'zod';
import type { userUpdateSchema } from '../../../../../../contract/admin-user-requests.ts';
import { api } from '../../../../api/client.ts';
import { type DetailAnswer, useAdminMutation, withCode } from '../../shared/admin-mutation.ts';

type UserUpdate = z.infer<typeof userUpdateSchema>;

/**
 * The edit form's values: the fields of PUT /api/admin/users/{id} as the server reads them, each '' when left empty
 * (the schema's input takes anything, since it drops blank fields before checking them, so its output names them).
 */
export type UpdateUserInput = { [K in keyof UserUpdate]-?: NonNullable<UserUpdate[K]> | '' } & {
  id: string;
  totp_code: string;
};

/** Spec: only the non-empty fields among full_name, email and role are sent. */
export const updateUserFields = ({ full_name, email, role }: Pick<UpdateUserInput, 'full_name' | 'email' | 'role'>) =>
  Object.fromEntries(
    Object.entries({ full_name: full_name.trim(), email: email.trim(), role }).filter(([, v]) => v !== ''),
  );

export const updateUser = (input: UpdateUserInput) =>
  api<DetailAnswer>(`/admin/users/${input.id}`, {
    method: 'PUT',
    form: withCode(updateUserFields(input), input.totp_code),
    fallback: 'Failed to update user',
  });

export const useUpdateUser = () => useAdminMutation(updateUser);
