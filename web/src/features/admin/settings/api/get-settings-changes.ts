import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export interface SettingsChange {
  id: number;
  action_type: string;
  timestamp: string;
  actor: string;
  actor_username: string | null;
  summary: string;
}

/** The last changes of the rate and fee, newest first, with who made them (from the audit log). */
export const getSettingsChanges = (signal?: AbortSignal) =>
  api<SettingsChange[]>('/admin/audit-logs?object_type=settings&limit=5', signal ? { signal } : {});

export const settingsChangesQueryOptions = () => queryOptions({ queryKey: [ADMIN_KEY, 'settings-changes'], queryFn: ({ signal }) => getSettingsChanges(signal) });

export const useSettingsChanges = () => useQuery(settingsChangesQueryOptions());
