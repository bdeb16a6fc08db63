import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Message } from '../../../../contract/messages.ts';
import { api } from '../../api/client.ts';

export type { Message };

const path = (escrowId: string) => `/escrows/${encodeURIComponent(escrowId)}/messages`;
export const messagesKey = (escrowId: string) => ['messages', escrowId] as const;

/** How often an open conversation asks for new messages: the other side may write at any time. */
export const MESSAGES_POLL_MS = 15_000;

export const getMessages = (escrowId: string, signal?: AbortSignal) =>
  api<Message[]>(path(escrowId), { ...(signal ? { signal } : {}), fallback: 'Failed to load the messages' });

/** GET /api/escrows/{id}/messages, oldest first; read again every few seconds while shown. */
export const messagesQueryOptions = (escrowId: string) =>
  queryOptions({
    queryKey: messagesKey(escrowId),
    queryFn: ({ signal }) => getMessages(escrowId, signal),
    refetchInterval: MESSAGES_POLL_MS,
  });

export const useMessages = (escrowId: string) => useQuery(messagesQueryOptions(escrowId));

export interface NewMessage {
  text: string;
  file: File | null;
}

/** POST a message: JSON when it is only words, a multipart form when a file goes with it. */
export function postMessage(escrowId: string, { text, file }: NewMessage): Promise<Message> {
  if (!file)
    return api<Message>(path(escrowId), { method: 'POST', json: { text }, fallback: 'Failed to send the message' });
  const form = new FormData();
  form.append('text', text);
  form.append('file', file);
  return api<Message>(path(escrowId), { method: 'POST', form, fallback: 'Failed to send the message' });
}

/** Sends a message; the conversation and the escrow's timeline are read again. */
export function usePostMessage(escrowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: NewMessage) => postMessage(escrowId, message),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: messagesKey(escrowId) }),
        queryClient.invalidateQueries({ queryKey: ['escrows', escrowId, 'history'] }),
      ]);
    },
  });
}
