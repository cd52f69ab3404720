import { api } from '@/lib/api-client';
import type { ChatMessage } from '@/types/api';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';

export type SentChatMessage = {
  /** The shopper's message as stored. */
  message: ChatMessage;
  /** The assistant's answer; only while the chat is with the assistant. */
  reply: ChatMessage | null;
  /** The assistant was not confident: offer the live agent. */
  offer_live_agent: boolean;
};

/** POST /api/chat/send: `text` must already be trimmed and non-empty. */
export function sendChatMessage(chatId: string, text: string): Promise<SentChatMessage> {
  return api.post<SentChatMessage>('/chat/send', {
    chat_id: chatId,
    session_id: getChatSessionId(),
    message: text,
  });
}
