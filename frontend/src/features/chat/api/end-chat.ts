import { api } from '@/lib/api-client';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';

/** DELETE /api/chat/{id}: ends and removes the shopper's own chat. */
export function endChat(chatId: string): Promise<{ message: string }> {
  const query = new URLSearchParams({ session_id: getChatSessionId() });
  return api.delete<{ message: string }>(`/chat/${encodeURIComponent(chatId)}?${query}`);
}
