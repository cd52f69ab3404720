import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { cancelOrder } from '@/features/checkout/api/cancel-order';
import { getOrder } from '@/features/checkout/api/get-order';
import { orderIdFrom } from '@/features/checkout/utils/order-id';

import './success.css';

/**
 * Where the payment provider returns the buyer who gave up. The order is cancelled once so its
 * stock goes back on sale at once: only while it is still pending (the dev payment page, PayPal
 * or an expiry may have ended it already, when a cancel would only fail); a failure changes
 * nothing here.
 */
export function CancelRoute() {
  const [params] = useSearchParams();
  const orderId = orderIdFrom(params);
  const requested = useRef(false);

  useEffect(() => {
    if (orderId === null || requested.current) return;
    requested.current = true;
    getOrder(orderId)
      .then((order) => (order.status === 'pending' ? cancelOrder(orderId) : undefined))
      .catch(() => undefined);
  }, [orderId]);

  return (
    <div className="container result-page">
      <title>Payment cancelled · Garden Shop</title>
      <div className="result-page__hero result-page__hero--cancel">
        <div className="result-page__icon" aria-hidden="true">
          <AlertIcon size={36} />
        </div>
        <h1 className="result-page__title">Payment cancelled</h1>
        <p className="result-page__lead">
          Your payment was cancelled and nothing was charged.
          {orderId !== null ? ` Order #${orderId} will not be processed.` : ''} Your cart is still
          here whenever you are ready.
        </p>
      </div>
      <div className="result-page__actions">
        <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          Keep shopping
        </Link>
        <Link to={paths.checkout.getHref()} className={buttonClassName()}>
          Back to checkout
        </Link>
      </div>
    </div>
  );
}
