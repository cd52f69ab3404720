import { queryOptions, useQuery } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import type { Chat } from '@/types/api';

import { LIVE_CHATS_POLL_MS, liveChatKeys, type StaffChat } from './get-staff-chats';

/** GET /api/admin/chats/{id}: one chat (any status), as the list shows it. */
export async function getStaffChat(
  chatId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<StaffChat> {
  const chat = (await api.get('/admin/chats/{id}', {
    params: { path: { id: chatId } },
    signal,
  })) as Chat & { accepted_by: number | null };
  const { messages = [], ...rest } = chat;
  return { ...rest, last_message: messages.at(-1) ?? null, cursor: '' };
}

export function getStaffChatQueryOptions(chatId: string) {
  return queryOptions({
    queryKey: liveChatKeys.chat(chatId),
    queryFn: ({ signal }) => getStaffChat(chatId, { signal }),
    refetchInterval: pollWhileDown(LIVE_CHATS_POLL_MS),
    staleTime: 0,
    retry: false,
    meta: { userScoped: true },
  });
}

/**
 * The selected chat when the list no longer holds it: a chat the shopper ended leaves the open
 * list, and the staff still read how it ended. Asked only while `enabled`.
 */
export function useStaffChat(chatId: string | null, enabled: boolean) {
  return useQuery({ ...getStaffChatQueryOptions(chatId ?? ''), enabled: enabled && !!chatId });
}
