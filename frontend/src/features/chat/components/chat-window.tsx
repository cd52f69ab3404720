import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';

import { Button } from '@/components/ui/button';
import { IconButton } from '@/components/ui/icon-button';
import { AlertIcon, CloseIcon, HeadsetIcon, SendIcon } from '@/components/ui/icons';
import { MessageBubble, type MessageSide } from '@/components/ui/message-bubble';
import { Skeleton } from '@/components/ui/skeleton';
import type { ChatMessage } from '@/types/api';

import { endChat } from '@/features/chat/api/end-chat';
import { chatKeys } from '@/features/chat/api/get-chat-history';
import { LinkedText } from '@/features/chat/components/linked-text';
import { useHelpChat, type ChatPhase } from '@/features/chat/hooks/use-help-chat';
import './chat-window.css';

/** The longest message the server takes. */
const MAX_MESSAGE_LENGTH = 2000;

type ChatWindowProps = {
  /** Closes the window; the launcher takes focus back. */
  onClose: () => void;
};

function sideOf(message: ChatMessage): MessageSide {
  if (message.sender_type === 'system') return 'system';
  return message.sender_type === 'user' || message.sender_type === 'guest' ? 'mine' : 'theirs';
}

function authorOf(message: ChatMessage, agentName: string | null): string {
  switch (message.sender_type) {
    case 'bot':
      return i18next.t('chat.assistant');
    case 'admin':
    case 'super_admin':
      return agentName
        ? i18next.t('chat.agentNamed', { name: agentName })
        : i18next.t('chat.agent');
    default:
      return i18next.t('chat.you');
  }
}

function subtitleOf(phase: ChatPhase, agentName: string | null): string {
  switch (phase) {
    case 'pending':
      return i18next.t('chat.waitingForAgent');
    case 'connected':
      return agentName
        ? i18next.t('chat.liveAgentNamed', { name: agentName })
        : i18next.t('chat.liveAgent');
    case 'unavailable':
      return i18next.t('chat.offline');
    default:
      return i18next.t('chat.shopAssistant');
  }
}

type HelpChat = ReturnType<typeof useHelpChat>;

function ChatHeader({
  chat,
  titleId,
  onClose,
}: {
  chat: HelpChat;
  titleId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const live = chat.phase === 'pending' || chat.phase === 'connected';
  return (
    <header className="chat-window__header">
      <div className="chat-window__heading">
        <h2 id={titleId} className="chat-window__title">
          {t('chat.title')}
        </h2>
        <p className="chat-window__subtitle">
          <span className={`chat-window__dot chat-window__dot--${chat.phase}`} aria-hidden="true" />
          {subtitleOf(chat.phase, chat.agentName)}
        </p>
      </div>
      {live ? (
        <Button
          size="sm"
          variant="secondary"
          className="chat-window__end"
          loading={chat.ending}
          onClick={() => void chat.endLiveChat()}
        >
          {t('chat.end')}
        </Button>
      ) : null}
      <IconButton label={t('chat.close')} tone="inverse" onClick={onClose}>
        <CloseIcon />
      </IconButton>
    </header>
  );
}

/** The conversation; the newest message stays in view. */
function ChatLog({ chat }: { chat: HelpChat }) {
  const { t } = useTranslation();
  const logRef = useRef<HTMLDivElement>(null);
  const messageCount = chat.messages.length;
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messageCount, chat.phase]);
  return (
    <div
      ref={logRef}
      className="chat-window__log"
      role="log"
      aria-live="polite"
      aria-label={t('chat.conversation')}
      // scrollable: reachable by keyboard so the arrow keys can scroll it
      tabIndex={0}
      aria-busy={chat.phase === 'starting'}
    >
      {chat.phase === 'starting' ? (
        <div className="chat-window__loading">
          <Skeleton width="70%" height={44} radius="var(--radius-lg)" />
          <Skeleton width="45%" height={28} radius="var(--radius-lg)" />
        </div>
      ) : null}
      {chat.messages.map((message) => (
        <MessageBubble
          key={message.id}
          side={sideOf(message)}
          author={authorOf(message, chat.agentName)}
          time={message.created_at}
        >
          {message.sender_type === 'bot' ? <LinkedText text={message.message} /> : message.message}
        </MessageBubble>
      ))}
      {chat.joinedNoticeMissing ? (
        <MessageBubble side="system">{t('chat.agentJoined')}</MessageBubble>
      ) : null}
      {chat.sending && chat.phase === 'ai' ? (
        <p className="chat-window__typing">{t('chat.typing')}</p>
      ) : null}
    </div>
  );
}

/** Under the conversation: the chat that could not start, the wait, Talk to Live Agent, a failed send. */
function ChatNotices({ chat }: { chat: HelpChat }) {
  const { t } = useTranslation();
  return (
    <>
      {chat.phase === 'unavailable' ? (
        <div className="chat-window__notice chat-window__notice--danger" role="alert">
          <AlertIcon size={18} />
          <p>{t('chat.startFailed')}</p>
          <Button size="sm" variant="secondary" onClick={chat.retryStart}>
            {t('common.tryAgain')}
          </Button>
        </div>
      ) : null}

      {chat.phase === 'pending' ? (
        <p className="chat-window__notice chat-window__notice--waiting" role="status">
          <span className="chat-window__spinner" aria-hidden="true" />
          {t('chat.waitingToJoin')}
        </p>
      ) : null}

      {chat.phase === 'ai' ? (
        <div
          className={`chat-window__agent${chat.offerLiveAgent ? ' chat-window__agent--offer' : ''}`}
        >
          {chat.offerLiveAgent ? (
            <p className="chat-window__offer-text">{t('chat.offer')}</p>
          ) : null}
          <Button
            size="sm"
            variant={chat.offerLiveAgent ? 'primary' : 'ghost'}
            startIcon={<HeadsetIcon size={18} />}
            loading={chat.requestingAgent}
            onClick={() => void chat.requestAgent()}
          >
            {t('chat.talkToAgent')}
          </Button>
        </div>
      ) : null}

      {chat.sendError ? (
        <p className="chat-window__error" role="alert">
          {chat.sendError}
        </p>
      ) : null}
    </>
  );
}

type ChatFormProps = {
  chat: HelpChat;
  inputRef: RefObject<HTMLInputElement | null>;
};

/**
 * The message box and Send; blocked while waiting for an agent. A message sent while the chat is
 * still starting is held and goes as soon as the chat can take it (Enter is never lost).
 */
function ChatForm({ chat, inputRef }: ChatFormProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [draft, setDraft] = useState('');
  const held = useRef<string | null>(null);
  const waiting = chat.phase === 'pending';
  const starting = chat.phase === 'starting';
  const { canSend, send } = chat;

  const deliver = useCallback(
    async (text: string) => {
      setDraft('');
      const sent = await send(text);
      if (!sent) setDraft((current) => current || text);
    },
    [send],
  );

  useEffect(() => {
    const text = held.current;
    if (text === null || !canSend) return;
    held.current = null;
    void deliver(text);
  }, [canSend, deliver]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft.trim() || held.current !== null) return;
    if (canSend) void deliver(draft);
    else if (starting) held.current = draft;
  };

  return (
    <form className="chat-window__form" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={inputId}>
        {t('chat.message')}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        className="chat-window__input"
        type="text"
        autoComplete="off"
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder={waiting ? t('chat.waitingToJoin') : t('chat.placeholder')}
        disabled={waiting}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
      />
      <IconButton
        type="submit"
        label={t('chat.send')}
        tone="brand"
        className="chat-window__send"
        disabled={(!canSend && !starting) || chat.sending || !draft.trim()}
      >
        <SendIcon size={18} />
      </IconButton>
    </form>
  );
}

/**
 * The help chat window (lazy-loaded on the first open): the conversation, Talk to Live Agent,
 * the waiting notice, End chat and the message box. Escape closes it.
 */
export function ChatWindow({ onClose }: ChatWindowProps) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const chat = useHelpChat();
  const inputRef = useRef<HTMLInputElement>(null);
  const windowRef = useRef<HTMLElement>(null);

  // Focus goes to the message box on open.
  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  // Back to the message box once it can be used again (after waiting, or after a restart).
  useEffect(() => {
    if (!chat.canSend) return;
    if (windowRef.current?.contains(document.activeElement)) inputRef.current?.focus();
  }, [chat.canSend]);

  const close = () => {
    const liveChat = chat.chatToEndOnClose;
    if (liveChat) {
      endChat(liveChat).catch((error: unknown) => {
        console.error('Could not end the live chat on close:', error);
      });
    }
    queryClient.removeQueries({ queryKey: chatKeys.all });
    onClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };

  return (
    <section
      ref={windowRef}
      className="chat-window"
      role="dialog"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
    >
      <ChatHeader chat={chat} titleId={titleId} onClose={close} />
      <ChatLog chat={chat} />
      <ChatNotices chat={chat} />
      <ChatForm chat={chat} inputRef={inputRef} />
    </section>
  );
}
