import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import { liveChatKeys, type StaffChatPages } from './get-staff-chats';

/** DELETE /api/admin/chats/{id}: takes the CHAT's id and removes it with its messages. */
export function deleteStaffChat(chatId: string): Promise<Schemas['Message']> {
  return api.delete('/admin/chats/{id}', { params: { path: { id: chatId } } });
}

export function useDeleteStaffChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStaffChat,
    onSuccess: (_data, chatId) => {
      queryClient.setQueriesData<StaffChatPages>({ queryKey: liveChatKeys.list() }, (current) =>
        current
          ? { ...current, pages: current.pages.map((page) => page.filter((c) => c.id !== chatId)) }
          : current,
      );
      queryClient.removeQueries({ queryKey: liveChatKeys.messages(chatId) });
      toast.success('Conversation deleted.');
    },
    onError: (error) => {
      console.error('Could not delete the conversation:', error);
      toast.error('Failed to delete conversation.');
    },
  });
}
