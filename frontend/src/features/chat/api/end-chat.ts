import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';

/** DELETE /api/chat/{id}: ends and removes the shopper's own chat. */
export function endChat(chatId: string): Promise<Schemas['ChatEnded']> {
  return api.delete('/chat/{chat_id}', {
    params: { path: { chat_id: chatId }, query: { session_id: getChatSessionId() } },
  });
}
