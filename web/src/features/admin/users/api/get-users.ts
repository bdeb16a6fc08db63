import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../../../../contract/users.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** An account as admins see it: the API's answer schema. */
export type AdminUser = User;
export type Role = AdminUser['role'];

export const getUsers = (signal?: AbortSignal) => api<AdminUser[]>('/admin/users', signal ? { signal } : {});

export const usersQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'users'], queryFn: ({ signal }) => getUsers(signal) });

/** Every account, newest first. */
export const useUsers = () => useQuery(usersQueryOptions());
