import { queryOptions } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import type { Chat } from '@/types/api';

import { chatKeys, chatQuery } from './get-chat-history';

/** GET /api/chat/status: the chat without messages (status, accepted_by); 404 once it is gone. */
export function getChatStatus(
  chatId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Chat> {
  return api.get('/chat/status', { params: { query: chatQuery(chatId) }, signal }) as Promise<Chat>;
}

/** Polled every `pollMs` while the shopper waits for or talks to a live agent (docs/product.md, Behaviour). */
export function getChatStatusQueryOptions(chatId: string, pollMs: number) {
  return queryOptions({
    queryKey: chatKeys.status(chatId),
    queryFn: ({ signal }) => getChatStatus(chatId, { signal }),
    // polled only while the event stream is down (a chat event refetches it)
    refetchInterval: pollWhileDown(pollMs),
    staleTime: 0,
    // A 404 means the chat is gone: act on it at once instead of asking again.
    retry: false,
  });
}
