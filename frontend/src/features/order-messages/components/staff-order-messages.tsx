import { useId, useState } from 'react';

import { useStaffOrderMessages } from '@/features/order-messages/api/get-order-messages';
import { useSendStaffOrderMessage } from '@/features/order-messages/api/send-order-message';
import { MessageComposer } from '@/features/order-messages/components/message-composer';
import { MessageThread } from '@/features/order-messages/components/message-thread';
import { errorMessage } from '@/lib/api-client';

import './order-messages.css';

type StaffOrderMessagesProps = {
  orderId: number;
  /** The order takes messages now (paid, or delivered lately; the server has the last word). */
  open: boolean;
};

/** The thread on a staff queue card: collapsed with its count, a reply box when expanded. */
export function StaffOrderMessages({ orderId, open }: StaffOrderMessagesProps) {
  const [expanded, setExpanded] = useState(false);
  const regionId = useId();
  const messages = useStaffOrderMessages(orderId);
  const send = useSendStaffOrderMessage(orderId);
  const thread = messages.data ?? [];
  const last = thread.at(-1);
  const waiting = last?.from === 'buyer';
  if (!open && thread.length === 0) return null;

  return (
    <div className="order-messages order-messages--staff">
      <button
        type="button"
        className={`order-messages__toggle${waiting ? ' order-messages__toggle--waiting' : ''}`}
        aria-expanded={expanded}
        aria-controls={regionId}
        onClick={() => setExpanded((now) => !now)}
      >
        <span>Messages ({thread.length})</span>
        {waiting ? <span className="order-messages__new">Buyer wrote</span> : null}
      </button>
      <div id={regionId} hidden={!expanded} className="order-messages__body">
        {messages.isError ? (
          <p className="order-messages__empty">
            The messages could not be loaded: {errorMessage(messages.error)}
          </p>
        ) : (
          <MessageThread
            messages={thread}
            mine="staff"
            label={`Messages of order #${orderId}`}
            empty="No messages yet."
          />
        )}
        {open ? (
          <MessageComposer
            label="Reply to the buyer"
            onSend={(text) => send.mutateAsync(text)}
            pending={send.isPending}
            error={send.error}
          />
        ) : null}
      </div>
    </div>
  );
}
