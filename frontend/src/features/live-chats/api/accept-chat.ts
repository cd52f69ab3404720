import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';
import type { Chat } from '@/types/api';

import { liveChatKeys } from './get-staff-chats';

/** POST /api/admin/chats/{id}/accept: joins a waiting chat (409 when someone else was first). */
export function acceptChat(chatId: string): Promise<Chat> {
  return api.post('/admin/chats/{id}/accept', {
    params: { path: { id: chatId } },
  }) as Promise<Chat>;
}

export function useAcceptChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptChat,
    onSuccess: () => toast.success('Chat accepted'),
    onError: (error) => {
      console.error('Could not accept the chat:', error);
      toast.error('Failed to accept chat');
    },
    // Either way the list shows who has the chat now, and the conversation its notice.
    onSettled: (_data, _error, chatId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: liveChatKeys.list() }),
        queryClient.invalidateQueries({ queryKey: liveChatKeys.messages(chatId) }),
      ]),
  });
}
