import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ApiToken, ApiTokenScope, createdApiTokenSchema } from '../../../../../contract/api-tokens.ts';
import { api } from '../../../api/client.ts';

export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
const KEY = ['api-tokens'];

/** GET /api/tokens: the live tokens with their last use. */
export const apiTokensQueryOptions = () => ({
  queryKey: KEY,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<ApiToken[]>('/tokens', { signal, fallback: 'Failed to load API tokens' }),
});
export const useApiTokens = () => useQuery(apiTokensQueryOptions());

/** POST /api/tokens: the answer holds the token, shown once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; scopes: ApiTokenScope[]; totp_code?: string }) =>
      api<CreatedApiToken>('/tokens', { method: 'POST', json: input, fallback: 'Failed to make the token' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /api/tokens/{id}. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ detail: string }>(`/tokens/${id}`, { method: 'DELETE', fallback: 'Failed to revoke the token' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
