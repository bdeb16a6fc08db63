import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { auditEntrySchema } from '../../../../../../contract/audit.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export const AUDIT_PAGE_SIZE = 50;

/** One line of the audit log: the API's answer schema. */
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export interface AuditFilters {
  action_type: string;
  object_type: string;
  object_id: string;
  actor: string;
  /** ISO times, or empty. */
  from: string;
  to: string;
}

/** One page, newest first: `before` is the id the previous page ended at. */
export function getAuditLogs(filters: AuditFilters, before: number | null, signal?: AbortSignal) {
  const query = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  for (const [key, value] of Object.entries(filters)) if (value.trim()) query.set(key, value.trim());
  if (before) query.set('before', String(before));
  return api<AuditEntry[]>(`/admin/audit-logs?${query}`, signal ? { signal } : {});
}

export const auditLogsQueryOptions = (filters: AuditFilters, before: number | null) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'audit', filters, before],
    queryFn: ({ signal }) => getAuditLogs(filters, before, signal),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (filters: AuditFilters, before: number | null) =>
  useQuery(auditLogsQueryOptions(filters, before));
