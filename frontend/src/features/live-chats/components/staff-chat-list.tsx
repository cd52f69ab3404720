import { Badge } from '@/components/ui/badge';

import type { StaffChat } from '@/features/live-chats/api/get-staff-chats';
import { customerName, formatChatTime, isNewChat } from '@/features/live-chats/utils/chat-labels';

type StaffChatListProps = {
  chats: StaffChat[];
  selectedId: string | null;
  onSelect: (chatId: string) => void;
};

/** Newest activity first (the server's order), each with its 'New' or 'Closed' badge or unread dot. */
export function StaffChatList({ chats, selectedId, onSelect }: StaffChatListProps) {
  return (
    <ul className="staff-chat-list" aria-label="Conversations">
      {chats.map((chat) => {
        const selected = chat.id === selectedId;
        const unread = !selected && chat.has_unread_messages;
        const name = customerName(chat);
        const time = chat.last_message?.created_at ?? chat.created_at;
        return (
          <li key={chat.id}>
            <button
              type="button"
              className="staff-chat-list__item"
              aria-current={selected ? 'true' : undefined}
              onClick={() => onSelect(chat.id)}
            >
              <span className="staff-chat-list__top">
                <span className="staff-chat-list__name">
                  {name}
                  {chat.user ? null : <span className="visually-hidden"> (guest)</span>}
                </span>
                {isNewChat(chat) ? <Badge tone="warning">New</Badge> : null}
                {chat.status === 'closed' ? <Badge>Closed</Badge> : null}
                {unread ? (
                  <span className="staff-chat-list__unread" data-testid="unread-dot">
                    <span className="visually-hidden">Unread messages</span>
                  </span>
                ) : null}
              </span>
              <span className="staff-chat-list__meta">
                <time dateTime={time}>{formatChatTime(time)}</time>
                {chat.accepted_by_name ? <span> · with {chat.accepted_by_name}</span> : null}
              </span>
              {chat.last_message ? (
                <span className="staff-chat-list__preview">{chat.last_message.message}</span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
