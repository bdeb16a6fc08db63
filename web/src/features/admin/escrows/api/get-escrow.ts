import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { escrowSchema, escrowStatusSchema } from '../../../../../../contract/escrows.ts';
import { api } from '../../../../api/client.ts';
import { ADMIN_KEY } from '../../shared/admin-mutation.ts';

export type EscrowStatus = z.infer<typeof escrowStatusSchema>;

/** An escrow as admins see it (GET /api/escrows/{id}, and each item of GET /api/admin/escrows): the API's answer schema. */
export type AdminEscrow = z.infer<typeof escrowSchema>;

export const getEscrow = (id: string, signal?: AbortSignal) =>
  api<AdminEscrow>(`/escrows/${id}`, signal ? { signal } : {});

export const escrowQueryOptions = (id: string) =>
  queryOptions({ queryKey: [ADMIN_KEY, 'escrow', id], queryFn: ({ signal }) => getEscrow(id, signal) });

export const useEscrow = (id: string) => useQuery(escrowQueryOptions(id));
