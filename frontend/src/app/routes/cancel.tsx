import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
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
      <title>{t('common.pageTitle', { title: t('cancel.title') })}</title>
      <div className="result-page__hero result-page__hero--cancel">
        <div className="result-page__icon" aria-hidden="true">
          <AlertIcon size={36} />
        </div>
        <h1 className="result-page__title">{t('cancel.title')}</h1>
        <p className="result-page__lead">
          {orderId !== null ? t('cancel.leadWithOrder', { orderId }) : t('cancel.lead')}
        </p>
      </div>
      <div className="result-page__actions">
        <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          {t('cancel.keepShopping')}
        </Link>
        <Link to={paths.checkout.getHref()} className={buttonClassName()}>
          {t('cancel.backToCheckout')}
        </Link>
      </div>
    </div>
  );
}
