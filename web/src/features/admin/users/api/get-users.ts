import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export type Role = 'buyer' | 'seller' | 'admin';

export interface AdminUser {
  id: string;
  username: string;
  email: string;
  email_verified: boolean;
  full_name: string;
  role: Role;
  country: string | null;
  phone: string | null;
  created_at: string;
  is_frozen: boolean;
  suspension_reason: string | null;
  totp_enabled: boolean;
}

export const getUsers = (signal?: AbortSignal) => api<AdminUser[]>('/admin/users', signal ? { signal } : {});

export const usersQueryOptions = () => queryOptions({ queryKey: [ADMIN_KEY, 'users'], queryFn: ({ signal }) => getUsers(signal) });

/** Every account, newest first. */
export const useUsers = () => useQuery(usersQueryOptions());
