import type { ReactNode } from 'react';

import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';

import './help-chat-button.css';

/** Words in a sentence ("ask us in the help chat") that open the help chat window. */
export function HelpChatButton({ children }: { children: ReactNode }) {
  const open = useChatWidgetStore((state) => state.open);
  return (
    <button type="button" className="help-chat-button" aria-haspopup="dialog" onClick={open}>
      {children}
    </button>
  );
}
