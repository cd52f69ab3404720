import type { ChatMessage } from '@/types/api';

import type { StaffChat } from '@/features/live-chats/api/get-staff-chats';

/** The shopper's name, or 'Guest' for a chat without an account. */
export function customerName(chat: Pick<StaffChat, 'user'>): string {
  return chat.user?.name?.trim() || 'Guest';
}

/** A chat waiting for someone to join ('New' badge, docs/product.md, Behaviour); an ended one is not new. */
export function isNewChat(chat: Pick<StaffChat, 'accepted_by' | 'status'>): boolean {
  return chat.status !== 'closed' && chat.accepted_by == null;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatChatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
}

/** Who wrote a message, as staff see it. */
export function staffAuthorOf(message: ChatMessage, customer: string): string {
  switch (message.sender_type) {
    case 'bot':
      return 'Assistant';
    case 'admin':
    case 'super_admin':
      return 'Staff';
    case 'system':
      return '';
    default:
      return customer;
  }
}
