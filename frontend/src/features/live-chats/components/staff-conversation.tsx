import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ArrowLeftIcon, TrashIcon } from '@/components/ui/icons';
import { MessageBubble } from '@/components/ui/message-bubble';
import { Skeleton } from '@/components/ui/skeleton';
import type { ChatMessage } from '@/types/api';

import { useAcceptChat } from '@/features/live-chats/api/accept-chat';
import { useDeleteStaffChat } from '@/features/live-chats/api/delete-staff-chat';
import { useStaffChatMessages } from '@/features/live-chats/api/get-staff-chat-messages';
import type { StaffChat } from '@/features/live-chats/api/get-staff-chats';
import { useMarkChatRead } from '@/features/live-chats/api/mark-chat-read';
import { useSendStaffReply } from '@/features/live-chats/api/send-staff-reply';
import {
  customerName,
  formatChatTime,
  isNewChat,
  staffAuthorOf,
} from '@/features/live-chats/utils/chat-labels';

/** After a reply is sent the button stays locked this long (docs/product.md, Constants and limits). */
export const REPLY_LOCK_MS = 3000;

const MAX_MESSAGE_LENGTH = 2000;

type StaffConversationProps = {
  chat: StaffChat;
  /** Back to the list (phones show one pane at a time). */
  onBack: () => void;
  onDeleted: () => void;
};

function sideOf(message: ChatMessage) {
  if (message.sender_type === 'system') return 'system' as const;
  return message.sender_type === 'admin' || message.sender_type === 'super_admin'
    ? ('mine' as const)
    : ('theirs' as const);
}

/** The reply lock: on while a reply is sent, off after REPLY_LOCK_MS or at once on failure. */
function useReplyLock() {
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const lock = () => {
    setLocked(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setLocked(false), REPLY_LOCK_MS);
  };
  const unlock = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setLocked(false);
  };
  return { locked, lock, unlock };
}

/** The messages, marked read once loaded and on every new one, scrolled to the last. */
function ConversationLog({ chat, name }: { chat: StaffChat; name: string }) {
  const messages = useStaffChatMessages(chat.id);
  const { mutate: markRead } = useMarkChatRead();
  const logRef = useRef<HTMLDivElement>(null);
  const lastMessageId = messages.data?.at(-1)?.id ?? null;
  useEffect(() => {
    if (lastMessageId !== null) markRead(chat.id);
  }, [chat.id, lastMessageId, markRead]);
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [lastMessageId]);

  return (
    <div
      ref={logRef}
      className="staff-conversation__log"
      role="log"
      aria-live="polite"
      // scrollable: reachable by keyboard so the arrow keys can scroll it
      tabIndex={0}
      aria-label={`Conversation with ${name}`}
    >
      {messages.isPending ? (
        <div className="staff-conversation__loading" aria-busy="true">
          <Skeleton width="60%" height={44} radius="var(--radius-lg)" />
          <Skeleton width="40%" height={44} radius="var(--radius-lg)" />
        </div>
      ) : messages.isError ? (
        <p className="staff-conversation__error" role="alert">
          This conversation could not be loaded. It may have ended.
        </p>
      ) : (
        messages.data.map((message) => (
          <MessageBubble
            key={message.id}
            side={sideOf(message)}
            author={staffAuthorOf(message, name)}
            time={message.created_at}
          >
            {message.message}
          </MessageBubble>
        ))
      )}
    </div>
  );
}

/** The reply box: open once staff joined; locked while a reply is sent and a moment after. */
function ReplyForm({ chat, name }: { chat: StaffChat; name: string }) {
  const replyId = useId();
  const reply = useSendStaffReply();
  const replyLock = useReplyLock();
  const [draft, setDraft] = useState('');
  const canReply = chat.status === 'connected';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || replyLock.locked || !canReply) return;
    replyLock.lock();
    reply.mutate(
      { chatId: chat.id, message: text },
      { onSuccess: () => setDraft(''), onError: () => replyLock.unlock() },
    );
  };

  return (
    <form className="staff-conversation__form" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={replyId}>
        Reply to {name}
      </label>
      <input
        id={replyId}
        className="staff-conversation__input"
        type="text"
        autoComplete="off"
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder={
          canReply
            ? 'Type your reply...'
            : chat.status === 'closed'
              ? 'This chat has ended'
              : 'Join the chat to reply'
        }
        disabled={!canReply}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
      />
      <Button type="submit" disabled={!canReply || replyLock.locked || !draft.trim()}>
        {replyLock.locked ? 'Sending...' : 'Send'}
      </Button>
    </form>
  );
}

/** Join Chat (or where the chat stands) and Delete, which asks first. */
function ConversationActions({ chat, onDeleted }: { chat: StaffChat; onDeleted: () => void }) {
  const accept = useAcceptChat();
  const remove = useDeleteStaffChat();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const confirmDelete = () => {
    remove.mutate(chat.id, {
      onSuccess: () => {
        setConfirmingDelete(false);
        onDeleted();
      },
      onError: () => setConfirmingDelete(false),
    });
  };

  return (
    <div className="staff-conversation__actions">
      {chat.status === 'closed' ? (
        <Button size="sm" variant="secondary" disabled>
          Ended
        </Button>
      ) : !isNewChat(chat) ? (
        <Button size="sm" variant="secondary" disabled>
          In Progress
        </Button>
      ) : (
        <Button size="sm" loading={accept.isPending} onClick={() => accept.mutate(chat.id)}>
          Join Chat
        </Button>
      )}
      <Button
        size="sm"
        variant="danger"
        startIcon={<TrashIcon size={16} />}
        onClick={() => setConfirmingDelete(true)}
      >
        Delete
      </Button>
      <ConfirmDialog
        open={confirmingDelete}
        title="Delete conversation"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setConfirmingDelete(false)}
      >
        Are you sure you want to delete this conversation?
      </ConfirmDialog>
    </div>
  );
}

/** One conversation: its messages (polled 5 s, marked read), Join Chat, reply and delete. */
export function StaffConversation({ chat, onBack, onDeleted }: StaffConversationProps) {
  const titleId = useId();
  const name = customerName(chat);

  return (
    <section className="staff-conversation" aria-labelledby={titleId}>
      <header className="staff-conversation__header">
        <Button
          variant="ghost"
          size="sm"
          className="staff-conversation__back"
          startIcon={<ArrowLeftIcon size={18} />}
          onClick={onBack}
        >
          All chats
        </Button>
        <div className="staff-conversation__who">
          <h3 id={titleId} className="staff-conversation__name">
            {name}
            {chat.user ? null : <Badge tone="neutral">Guest</Badge>}
          </h3>
          <p className="staff-conversation__meta">
            Started {formatChatTime(chat.created_at)}
            {chat.accepted_by_name ? ` · with ${chat.accepted_by_name}` : ''}
          </p>
        </div>
        <ConversationActions chat={chat} onDeleted={onDeleted} />
      </header>

      <ConversationLog chat={chat} name={name} />

      {chat.status === 'closed' ? (
        <p className="staff-conversation__ended" role="status">
          {name} ended this chat. The conversation stays here to read.
        </p>
      ) : null}

      <ReplyForm chat={chat} name={name} />
    </section>
  );
}
