import { useTranslation } from 'react-i18next';

import { MessageBubble } from '@/components/ui/message-bubble';
import type { OrderMessage } from '@/features/order-messages/types';

type MessageThreadProps = {
  messages: OrderMessage[];
  /** Whose messages are drawn on the right as one's own. */
  mine: OrderMessage['from'];
  /** What an empty thread says. */
  empty: string;
  /** Names the list for screen readers. */
  label: string;
};

/** An order's messages, oldest first; new ones are announced politely. */
export function MessageThread({ messages, mine, empty, label }: MessageThreadProps) {
  const { t } = useTranslation('pages');
  if (messages.length === 0) {
    return <p className="order-messages__empty">{empty}</p>;
  }
  return (
    <ol className="order-messages__thread" aria-label={label} aria-live="polite">
      {messages.map((message) => (
        <li key={message.id} className="order-messages__item" data-testid="order-message">
          <MessageBubble
            side={message.from === mine ? 'mine' : 'theirs'}
            author={
              message.from === 'staff'
                ? t('messages.staffAuthor', { name: message.author })
                : message.author
            }
            time={message.created_at}
          >
            {message.text}
          </MessageBubble>
        </li>
      ))}
    </ol>
  );
}
