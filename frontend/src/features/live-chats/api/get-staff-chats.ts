import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Chat, ChatMessage } from '@/types/api';

/** A chat in the staff list: no messages, but the newest one. */
export type StaffChat = Chat & { last_message: ChatMessage | null };

/** How often the panel refreshes the list and the open conversation (spec §9). */
export const LIVE_CHATS_POLL_MS = 5000;

/** GET /api/admin/chats: every chat that asked for a live agent, waiting ones first, then newest. */
export function getStaffChats({ signal }: { signal?: AbortSignal } = {}): Promise<StaffChat[]> {
  return api.get<StaffChat[]>('/admin/chats', { signal });
}

export const liveChatKeys = {
  all: ['live-chats'] as const,
  list: () => ['live-chats', 'list'] as const,
  messages: (chatId: string) => ['live-chats', chatId, 'messages'] as const,
};

export function getStaffChatsQueryOptions() {
  return queryOptions({
    queryKey: liveChatKeys.list(),
    queryFn: ({ signal }) => getStaffChats({ signal }),
    refetchInterval: LIVE_CHATS_POLL_MS,
    staleTime: 0,
    // Staff data: dropped whenever the session changes.
    meta: { userScoped: true },
  });
}

export function useStaffChats() {
  return useQuery(getStaffChatsQueryOptions());
}
