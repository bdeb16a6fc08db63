import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createdWebhookSchema, WebhookDelivery, WebhookEndpoint } from '../../../../contract/webhooks.ts';
import { api } from '../../api/client.ts';

/** Whose endpoints: the admins' (/api/admin/webhooks, every escrow) or the signed-in user's (/api/webhooks). */
export type WebhookScope = 'admin' | 'user';
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

const base = (scope: WebhookScope) => (scope === 'admin' ? '/admin/webhooks' : '/webhooks');
/** Under the console's 'admin' key for admins, so a console-wide refresh includes them. */
export const webhooksKey = (scope: WebhookScope) => (scope === 'admin' ? ['admin', 'webhooks'] : ['webhooks']);

/** GET the endpoints with their latest deliveries; followed every few seconds while open (deliveries move). */
export const webhooksQueryOptions = (scope: WebhookScope) => ({
  queryKey: webhooksKey(scope),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<WebhookEndpoint[]>(base(scope), { signal, fallback: 'Failed to load webhooks' }),
  refetchInterval: 5_000,
});
export const useWebhooks = (scope: WebhookScope) => useQuery(webhooksQueryOptions(scope));

/** GET one endpoint's delivery log. */
export const useWebhookDeliveries = (scope: WebhookScope, id: string, enabled: boolean) =>
  useQuery({
    queryKey: [...webhooksKey(scope), id, 'deliveries'],
    queryFn: ({ signal }) =>
      api<WebhookDelivery[]>(`${base(scope)}/${id}/deliveries`, {
        signal,
        fallback: 'Failed to load the delivery log',
      }),
    enabled,
    refetchInterval: 5_000,
  });

export interface NewWebhook {
  url: string;
  event_types: string[];
  totp_code?: string;
}

export type WebhookAction =
  { kind: 'disable' | 'enable' | 'test' | 'delete'; id: string; totpCode?: string } | { kind: 'redeliver'; id: number };

function runAction(scope: WebhookScope, action: WebhookAction): Promise<unknown> {
  switch (action.kind) {
    case 'delete':
      return api(`${base(scope)}/${action.id}`, { method: 'DELETE', fallback: 'Failed to delete the endpoint' });
    case 'redeliver':
      return api(`${base(scope)}/deliveries/${action.id}/redeliver`, {
        method: 'POST',
        fallback: 'Failed to redeliver',
      });
    case 'enable':
      return api(`${base(scope)}/${action.id}/enable`, {
        method: 'POST',
        json: action.totpCode ? { totp_code: action.totpCode } : {},
        fallback: 'Failed to enable the endpoint',
      });
    case 'disable':
    case 'test':
      return api(`${base(scope)}/${action.id}/${action.kind}`, {
        method: 'POST',
        fallback: `Failed to ${action.kind === 'test' ? 'send a test' : 'disable the endpoint'}`,
      });
    default: {
      const never: never = action;
      throw new Error(`unknown action ${String(never)}`);
    }
  }
}

/** POST a new endpoint; the answer holds its secret, shown once. */
export function useCreateWebhook(scope: WebhookScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewWebhook) =>
      api<CreatedWebhook>(base(scope), { method: 'POST', json: input, fallback: 'Failed to create the endpoint' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(scope) }),
  });
}

/** Disable, enable, send a test, delete, redeliver. */
export function useWebhookAction(scope: WebhookScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: WebhookAction) => runAction(scope, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(scope) }),
  });
}
