import type { ReactNode } from 'react';

import './message-bubble.css';
import { currentLanguage } from '@/lib/i18n/format';

export type MessageSide = 'mine' | 'theirs' | 'system';

type MessageBubbleProps = {
  /** mine: right, brand green; theirs: left, grey; system: a centred notice. */
  side: MessageSide;
  /** Who wrote it, e.g. "Assistant" or "Ann (agent)". Not shown for system notices. */
  author?: string;
  /** ISO 8601; shown as the local time. */
  time?: string;
  children: ReactNode;
};

function formatTime(iso: string): string | null {
  const date = new Date(iso);
  // in the shop's language ("2:05 PM", "14:05")
  const format = new Intl.DateTimeFormat(currentLanguage(), { hour: '2-digit', minute: '2-digit' });
  return Number.isNaN(date.getTime()) ? null : format.format(date);
}

/** One chat message: the shopper's help chat and the staff's Live Chats panel both draw these. */
export function MessageBubble({ side, author, time, children }: MessageBubbleProps) {
  if (side === 'system') {
    return <p className="message message--system">{children}</p>;
  }
  const shownTime = time ? formatTime(time) : null;
  return (
    <div className={`message message--${side}`}>
      {author || shownTime ? (
        <p className="message__meta">
          {author ? <span className="message__author">{author}</span> : null}
          {shownTime && time ? <time dateTime={time}>{shownTime}</time> : null}
        </p>
      ) : null}
      <p className="message__text">{children}</p>
    </div>
  );
}
