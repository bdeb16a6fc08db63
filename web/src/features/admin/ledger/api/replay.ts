import { useMutation } from '@tanstack/react-query';
import { api } from '../../../../api/client.ts';

export interface ReplayReport {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  match: boolean;
  tables: { table: string; liveRows: number; rebuiltRows: number; match: boolean; onlyLive: unknown[]; onlyRebuilt: unknown[] }[];
}

/** Rebuild every read model from the log into scratch tables and compare with the live ones (nothing is replaced). */
export const replay = () => api<ReplayReport>('/admin/replay', { json: { swap: false }, fallback: 'Failed to replay the log' });

/** Changes nothing: no list to refresh afterwards. */
export const useReplay = () => useMutation({ mutationFn: replay });
