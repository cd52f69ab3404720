import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { liveChatKeys } from './get-staff-chats';

/** POST /api/admin/chats/{id}/mark-read: staff have read the conversation so far. */
export function markChatRead(chatId: string): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/admin/chats/${encodeURIComponent(chatId)}/mark-read`);
}

export function useMarkChatRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markChatRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: liveChatKeys.list() }),
    onError: (error) => console.error('Could not mark the chat read:', error),
  });
}
