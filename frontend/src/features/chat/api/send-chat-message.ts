import { api } from '@/lib/api-client';
import type { ChatMessage, Schemas } from '@/types/api';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';

/**
 * The shopper's message as stored; the assistant's `reply` (null unless the chat is with the
 * assistant); `offer_live_agent` when the assistant was not confident.
 */
export type SentChatMessage = Omit<Schemas['SentMessage'], 'message' | 'reply'> & {
  message: ChatMessage;
  reply: ChatMessage | null;
};

/** POST /api/chat/send: `text` must already be trimmed and non-empty. */
export function sendChatMessage(chatId: string, text: string): Promise<SentChatMessage> {
  return api.post('/chat/send', {
    body: { chat_id: chatId, session_id: getChatSessionId(), message: text },
  }) as Promise<SentChatMessage>;
}
