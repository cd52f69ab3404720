import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import { liveChatKeys } from './get-staff-chats';

/** POST /api/admin/chats/{id}/mark-read: staff have read the conversation so far. */
export function markChatRead(chatId: string): Promise<Schemas['Message']> {
  return api.post('/admin/chats/{id}/mark-read', { params: { path: { id: chatId } } });
}

export function useMarkChatRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markChatRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: liveChatKeys.list() }),
    onError: (error) => console.error('Could not mark the chat read:', error),
  });
}
