import { api } from '@/lib/api-client';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';
import type { StartedChat } from './start-ai-chat';

/**
 * POST /api/chat/start-live: asks for a live agent. The assistant chat `chatId` moves to
 * pending (staff see what was said); without one the server makes a new pending chat.
 */
export function startLiveChat(chatId: string | null): Promise<StartedChat> {
  return api.post('/chat/start-live', {
    body: { session_id: getChatSessionId(), ...(chatId ? { chat_id: chatId } : {}) },
  }) as Promise<StartedChat>;
}
