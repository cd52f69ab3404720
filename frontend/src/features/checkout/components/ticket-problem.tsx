import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { useJoinTicket } from '@/features/checkout/api/join-ticket';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { errorMessage } from '@/lib/api-client';

type TicketProblemProps = {
  /** An order whose `delivery.ticket_problem` is set. */
  order: TrackedOrder;
  orderKey: string | null;
  /** The shop's Discord invite; null: the buyer cannot join, the help chat stands in. */
  discordInviteUrl: string | null;
  /** Words that open the help chat ("Ask us in the help chat"). */
  helpChat: ReactNode;
};

/**
 * Why the order's Discord ticket could not be opened or the buyer added to it, and the way to
 * fix it: join the server, then "I joined, add me to my ticket".
 */
export function TicketProblem({ order, orderKey, discordInviteUrl, helpChat }: TicketProblemProps) {
  const { t } = useTranslation('pages');
  const join = useJoinTicket(order.id, orderKey);
  return (
    <section className="order-ticket-problem" aria-labelledby="order-ticket-problem-title">
      <h2 id="order-ticket-problem-title" className="order-page__subtitle">
        {t('ticket.title')}
      </h2>
      <p data-testid="ticket-problem">{order.delivery.ticket_problem}</p>
      {discordInviteUrl ? (
        <>
          <p>
            <Trans
              t={t}
              i18nKey="ticket.join"
              components={{ server: <ExternalLink href={discordInviteUrl} /> }}
            />
          </p>
          <Button variant="secondary" loading={join.isPending} onClick={() => join.mutate()}>
            {t('ticket.button')}
          </Button>
          {join.isError ? (
            <p className="order-handoff__error" role="alert">
              {errorMessage(join.error)}
            </p>
          ) : null}
        </>
      ) : (
        <p>
          {t('ticket.without')} {helpChat}.
        </p>
      )}
    </section>
  );
}
