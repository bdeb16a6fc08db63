import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { replayReportSchema } from '../../../../../../contract/audit.ts';
import { api } from '../../../../api/client.ts';

/** What a replay found, table by table: the API's answer schema. */
export type ReplayReport = z.infer<typeof replayReportSchema>;

/** Rebuild every read model from the log into scratch tables and compare with the live ones (nothing is replaced). */
export const replay = () =>
  api<ReplayReport>('/admin/replay', { json: { swap: false }, fallback: 'Failed to replay the log' });

/** Changes nothing: no list to refresh afterwards. */
export const useReplay = () => useMutation({ mutationFn: replay });
