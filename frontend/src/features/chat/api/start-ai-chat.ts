import { api } from '@/lib/api-client';
import type { Chat, Schemas } from '@/types/api';

import { getChatSessionId } from '@/features/chat/utils/chat-session-id';

export type StartedChat = Omit<Schemas['StartedChat'], 'chat'> & { chat: Chat };

/** POST /api/chat/start-ai: a new chat with the assistant; its messages hold the greeting. */
export function startAiChat(): Promise<StartedChat> {
  return api.post('/chat/start-ai', {
    body: { session_id: getChatSessionId() },
  }) as Promise<StartedChat>;
}
