import { queryOptions, useQuery } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import type { ChatMessage } from '@/types/api';

import { LIVE_CHATS_POLL_MS, liveChatKeys } from './get-staff-chats';

/** GET /api/admin/chats/{id}/messages: the conversation, oldest first. */
export function getStaffChatMessages(
  chatId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ChatMessage[]> {
  return api.get('/admin/chats/{id}/messages', {
    params: { path: { id: chatId } },
    signal,
  }) as Promise<ChatMessage[]>;
}

export function getStaffChatMessagesQueryOptions(chatId: string) {
  return queryOptions({
    queryKey: liveChatKeys.messages(chatId),
    queryFn: ({ signal }) => getStaffChatMessages(chatId, { signal }),
    refetchInterval: pollWhileDown(LIVE_CHATS_POLL_MS),
    staleTime: 0,
    meta: { userScoped: true },
  });
}

export function useStaffChatMessages(chatId: string) {
  return useQuery(getStaffChatMessagesQueryOptions(chatId));
}
