import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { AlertIcon, CheckCircleIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { useAdminOrders } from '@/features/admin-orders/api/get-admin-orders';
import { OrdersQueue } from '@/features/admin-orders/components/orders-queue';
import {
  PrivateServerPanel,
  type PrivateServerPrompt,
} from '@/features/admin-orders/components/private-server-panel';
import type { OrdersFilter } from '@/features/admin-orders/types';
import { useUser } from '@/features/auth/hooks/use-user';
import { errorMessage } from '@/lib/api-client';

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
  const { user, isSuperAdmin } = useUser();
  const current = FILTERS.find((item) => item.value === filter) ?? FILTERS[0];

  let content;
  if (orders.isPending) {
    content = (
      <div className="admin-page__loading" aria-busy="true" aria-label="Loading orders">
        <Skeleton height={200} radius="var(--radius-lg)" />
        <Skeleton height={200} radius="var(--radius-lg)" />
      </div>
    );
  } else if (orders.isError) {
    content = (
      <StateMessage
        tone="danger"
        role="alert"
        icon={<AlertIcon size={28} />}
        title="We couldn't load the orders"
        description={errorMessage(orders.error)}
        action={
          <Button onClick={() => void orders.refetch()} loading={orders.isFetching}>
            Retry
          </Button>
        }
      />
    );
  } else if (orders.data.length === 0) {
    content = (
      <StateMessage
        role="status"
        icon={<CheckCircleIcon size={28} />}
        title={current?.empty ?? 'No orders.'}
        description="The list refreshes by itself every 10 seconds."
      />
    );
  } else {
    content = (
      <OrdersQueue
        orders={orders.data}
        currentUserId={user?.id ?? null}
        canReleaseHolds={isSuperAdmin}
        onNeedsPrivateServer={(message) => setServerPrompt({ message })}
      />
    );
  }

  return (
    <div className="container admin-page">
      <header className="admin-page__header">
        <div>
          <h1 className="admin-page__title">Orders to deliver</h1>
          <p className="admin-page__intro">
            Buyers ready in game first, then the oldest payment. Claim an order, meet the buyer in
            your private server, then mark it delivered.
          </p>
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
