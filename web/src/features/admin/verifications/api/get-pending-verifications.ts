import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { pendingVerificationSchema } from '../../../../../../contract/escrows.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

/** A marked payment waiting for an admin: the API's answer schema. */
export type PendingVerification = z.infer<typeof pendingVerificationSchema>;

export const getPendingVerifications = (signal?: AbortSignal) =>
  api<PendingVerification[]>('/admin/pending-verifications', signal ? { signal } : {});

export const pendingVerificationsQueryOptions = () =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'pending-verifications'],
    queryFn: ({ signal }) => getPendingVerifications(signal),
  });

export const usePendingVerifications = () => useQuery(pendingVerificationsQueryOptions());
