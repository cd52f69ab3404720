import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useOrderMessages } from '@/features/order-messages/api/get-order-messages';
import { useSendOrderMessage } from '@/features/order-messages/api/send-order-message';
import { MessageComposer } from '@/features/order-messages/components/message-composer';
import { MessageThread } from '@/features/order-messages/components/message-thread';
import { CANNOT_JOIN_TEXT } from '@/features/order-messages/types';
import { errorMessage } from '@/lib/api-client';

import './order-messages.css';

type OrderMessagesPanelProps = {
  orderId: number;
  orderKey: string | null;
  /** The order takes messages now (paid, or delivered lately; the server has the last word). */
  open: boolean;
  /** A member of staff has the order: the one-tap "I can't join the server" is offered. */
  claimed: boolean;
};

/** The buyer's line to staff on the order page: the thread, a text box and Send, live. */
export function OrderMessagesPanel({ orderId, orderKey, open, claimed }: OrderMessagesPanelProps) {
  const { t } = useTranslation('pages');
  const messages = useOrderMessages(orderId, orderKey);
  const send = useSendOrderMessage(orderId, orderKey);
  const thread = messages.data ?? [];
  if (!open && thread.length === 0) return null;

  return (
    <section
      className="order-page__card order-messages"
      aria-labelledby="order-messages-title"
      data-testid="order-messages"
    >
      <h2 id="order-messages-title" className="order-page__subtitle">
        {t('messages.title')}
      </h2>
      <p className="order-messages__intro">{open ? t('messages.intro') : t('messages.closed')}</p>
      {messages.isPending ? (
        <Skeleton height="3rem" />
      ) : messages.isError ? (
        <p className="order-messages__empty">
          {t('messages.failed', { reason: errorMessage(messages.error) })}
        </p>
      ) : (
        <MessageThread
          messages={thread}
          mine="buyer"
          label={t('messages.thread')}
          empty={t('messages.empty')}
        />
      )}
      {open ? (
        <>
          {claimed ? (
            <Button
              variant="secondary"
              fullWidth
              disabled={send.isPending}
              onClick={() => send.mutate(CANNOT_JOIN_TEXT)}
            >
              {t('messages.cannotJoin')}
            </Button>
          ) : null}
          <MessageComposer
            label={t('messages.toStaff')}
            onSend={(text) => send.mutateAsync(text)}
            pending={send.isPending}
            error={send.error}
          />
        </>
      ) : null}
    </section>
  );
}
