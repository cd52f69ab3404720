import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { CheckCircleIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { useAdminOrders } from '@/features/admin-orders/api/get-admin-orders';
import { OrdersQueue } from '@/features/admin-orders/components/orders-queue';
import { LiveState, QueueSummaryStrip } from '@/features/admin-orders/components/queue-summary';
import { summarizeQueue } from '@/features/admin-orders/utils/queue-summary';
import {
  PrivateServerPanel,
  type PrivateServerPrompt,
} from '@/features/admin-orders/components/private-server-panel';
import type { OrdersFilter } from '@/features/admin-orders/types';
import { useUser } from '@/features/auth/hooks/use-user';
import { StaffOrderMessages } from '@/features/order-messages/components/staff-order-messages';

import { RequireRole } from './admin-access';
import './admin-page.css';
import './admin-orders.css';

const FILTERS: { value: OrdersFilter; label: string; empty: string }[] = [
  { value: 'paid', label: 'Paid', empty: 'No paid orders are waiting. Nice work!' },
  { value: 'held', label: 'Held', empty: 'No orders are on hold.' },
  { value: 'delivered', label: 'Delivered', empty: 'No delivered orders yet.' },
  { value: 'all', label: 'All', empty: 'No orders yet.' },
];

function Orders() {
  const [filter, setFilter] = useState<OrdersFilter>('paid');
  // A claim refused for want of a private server link opens the link's form with its message.
  const [serverPrompt, setServerPrompt] = useState<PrivateServerPrompt | null>(null);
  const orders = useAdminOrders(filter);
  // The strip counts the paid orders whichever list is shown (the same query when it is Paid).
  const paid = useAdminOrders('paid');
  const { user, isSuperAdmin } = useUser();
  const current = FILTERS.find((item) => item.value === filter) ?? FILTERS[0];

  const content = (
    <QueryBoundary
      query={orders}
      loading={
        <SkeletonList
          className="admin-page__loading"
          label="Loading orders"
          height={200}
          count={2}
        />
      }
      errorTitle="We couldn't load the orders"
    >
      {(data) =>
        data.length === 0 ? (
          <StateMessage
            role="status"
            icon={<CheckCircleIcon size={28} />}
            title={current?.empty ?? 'No orders.'}
            description="New paid orders appear here as they come in."
          />
        ) : (
          <OrdersQueue
            orders={data}
            currentUserId={user?.id ?? null}
            canReleaseHolds={isSuperAdmin}
            onNeedsPrivateServer={(message) => setServerPrompt({ message })}
            renderExtra={(order) => (
              <StaffOrderMessages
                orderId={order.id}
                open={order.status === 'paid' || order.status === 'delivered'}
              />
            )}
          />
        )
      }
    </QueryBoundary>
  );

  return (
    // Every control of the queue takes its own tap: the floating chat buttons step aside from them.
    <div className="container admin-page admin-orders" data-keep-controls-clear>
      <header className="admin-page__header">
        <div className="admin-orders__heading">
          <h1 className="admin-page__title">Orders to deliver</h1>
          <p className="admin-page__intro">
            In order of payment. The orders waiting for a claim are numbered: No. 1 is next, and
            each buyer sees the same number. Claim an order, meet the buyer in your private server,
            then mark it delivered.
          </p>
          <LiveState />
        </div>
        <div className="orders-filter" role="group" aria-label="Show orders">
          {FILTERS.map((item) => (
            <Button
              key={item.value}
              size="sm"
              variant={item.value === filter ? 'primary' : 'secondary'}
              aria-pressed={item.value === filter}
              onClick={() => setFilter(item.value)}
            >
              {item.label}
            </Button>
          ))}
        </div>
      </header>
      <QueueSummaryStrip summary={paid.data ? summarizeQueue(paid.data) : null} />
      <PrivateServerPanel prompt={serverPrompt} />
      {content}
    </div>
  );
}

export function AdminOrdersRoute() {
  return (
    <>
      <title>Orders · Admin · Garden Shop</title>
      <RequireRole role="staff">
        <Orders />
      </RequireRole>
    </>
  );
}
