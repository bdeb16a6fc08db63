import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { switchRoleSchema } from '../../../../../contract/account-requests.ts';
import { api } from '../../../api/client.ts';
import type { User as CurrentUser } from '../../../../../contract/users.ts';

/** The roles a user may switch to: the server takes admin as a value, and refuses it. */
export type SwitchableRole = Exclude<z.input<typeof switchRoleSchema>['new_role'], 'admin'>;

/** POST /api/profile/switch-role (form new_role): answers the updated user. */
export const switchRole = (role: SwitchableRole) =>
  api<CurrentUser>('/profile/switch-role', {
    method: 'POST',
    form: { new_role: role },
    fallback: 'Failed to switch role',
  });

/** Switches buyer <-> seller; everything cached (the user, the escrow lists) is read again under the new role. */
export function useSwitchRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: switchRole, onSuccess: () => queryClient.invalidateQueries() });
}
