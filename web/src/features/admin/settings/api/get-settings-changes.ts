import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { auditEntrySchema } from '../../../../../../contract/audit.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** A change of the rate or fee: a line of the audit log (the API's answer schema). */
export type SettingsChange = z.infer<typeof auditEntrySchema>;

/** The last changes of the rate and fee, newest first, with who made them (from the audit log). */
export const getSettingsChanges = (signal?: AbortSignal) =>
  api<SettingsChange[]>('/admin/audit-logs?object_type=settings&limit=5', signal ? { signal } : {});

export const settingsChangesQueryOptions = () =>
  queryOptions({ queryKey: [ADMIN_KEY, 'settings-changes'], queryFn: ({ signal }) => getSettingsChanges(signal) });

export const useSettingsChanges = () => useQuery(settingsChangesQueryOptions());
