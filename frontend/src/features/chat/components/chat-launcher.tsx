import { useTranslation } from 'react-i18next';
import { lazy, Suspense, useRef } from 'react';

import { ChatIcon, CloseIcon } from '@/components/ui/icons';

import { useOutOfTheWay } from '@/hooks/use-out-of-the-way';
import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';
import './chat-launcher.css';

const loadChatWindow = () => import('./chat-window');

/** The window's code downloads on the first open (or hover), never with the storefront. */
const ChatWindow = lazy(async () => ({ default: (await loadChatWindow()).ChatWindow }));

/**
 * The help chat button, bottom right on every page. Closed by default; opening shows the chat
 * window, closing it resets the conversation and gives focus back to this button. While a form
 * or what a page marks `data-keep-clear` is under it, it fades out of the way (see
 * `useOutOfTheWay`); open, it is the window's close button and stays.
 */
export function ChatLauncher() {
  const { t } = useTranslation();
  const isOpen = useChatWidgetStore((state) => state.isOpen);
  const open = useChatWidgetStore((state) => state.open);
  const close = useChatWidgetStore((state) => state.close);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const away = useOutOfTheWay(buttonRef, !isOpen);

  const closeAndRefocus = () => {
    close();
    buttonRef.current?.focus();
  };

  return (
    <>
      {isOpen ? (
        <Suspense
          fallback={
            <div className="chat-launcher__loading" role="status">
              Opening the chat…
            </div>
          }
        >
          <ChatWindow onClose={closeAndRefocus} />
        </Suspense>
      ) : null}
      <button
        ref={buttonRef}
        type="button"
        className={away ? 'chat-launcher chat-launcher--away' : 'chat-launcher'}
        aria-expanded={isOpen}
        aria-haspopup="dialog"
        onClick={isOpen ? closeAndRefocus : open}
        onPointerEnter={() => void loadChatWindow()}
        onFocus={() => void loadChatWindow()}
      >
        {isOpen ? <CloseIcon size={24} /> : <ChatIcon size={24} />}
        <span className="chat-launcher__label">{t('chat.launcher')}</span>
      </button>
    </>
  );
}
