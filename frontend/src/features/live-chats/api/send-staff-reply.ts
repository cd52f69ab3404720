import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';
import type { ChatMessage } from '@/types/api';

import { liveChatKeys } from './get-staff-chats';

export type StaffReply = { chatId: string; message: string };

/** POST /api/chat/admin-reply: a message from staff in a connected chat. */
export async function sendStaffReply({ chatId, message }: StaffReply): Promise<ChatMessage> {
  const sent = await api.post('/chat/admin-reply', {
    body: { chat_id: chatId, message },
  });
  return sent.message as ChatMessage;
}

export function useSendStaffReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendStaffReply,
    onSuccess: (message, { chatId }) => {
      queryClient.setQueryData<ChatMessage[]>(liveChatKeys.messages(chatId), (current) =>
        current && !current.some((known) => known.id === message.id)
          ? [...current, message]
          : current,
      );
    },
    onError: (error) => {
      console.error('Could not send the reply:', error);
      toast.error('Failed to send reply');
    },
  });
}
