import { queryOptions } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { ChatMessage } from '@/types/api';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';

/** The query every shopper read carries: the chat and this browser's session. */
export function chatQuery(chatId: string) {
  return { chat_id: chatId, session_id: getChatSessionId() };
}

/** GET /api/chat/history: the chat with its messages, oldest first; marks staff replies read. */
export async function getChatHistory(
  chatId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ChatMessage[]> {
  const { chat } = await api.get('/chat/history', {
    params: { query: chatQuery(chatId) },
    signal,
  });
  return (chat.messages ?? []) as ChatMessage[];
}

export const chatKeys = queryKeys.chat;

/**
 * The conversation. The widget seeds it from start-ai and appends what send returns, so it is
 * fetched only while a live agent is awaited or connected (then every `pollMs`).
 */
export function getChatHistoryQueryOptions(chatId: string, pollMs: number | false) {
  return queryOptions({
    queryKey: chatKeys.history(chatId),
    queryFn: ({ signal }) => getChatHistory(chatId, { signal }),
    // polled only while the event stream is down (a chat event refetches it)
    refetchInterval: pollMs === false ? false : pollWhileDown(pollMs),
    staleTime: Infinity,
    retry: false,
  });
}
