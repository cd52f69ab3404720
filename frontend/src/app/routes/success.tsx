import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { AskUs } from '@/app/ask-us';
import { TrackedOrderView } from '@/app/routes/order';
import { buttonClassName } from '@/components/ui/button';
import { CheckCircleIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useUser } from '@/features/auth/hooks/use-user';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { DeliverySteps } from '@/features/checkout/components/delivery-steps';
import { useConfetti } from '@/features/checkout/hooks/use-confetti';
import { orderIdFrom } from '@/features/checkout/utils/order-id';
import { rememberedOrderKey } from '@/features/checkout/utils/order-key';
import { useSite } from '@/features/site/api/get-site';

import './success.css';

/**
 * Where the payment provider returns the buyer. It confirms nothing itself: it clears the cart,
 * celebrates, and is the order's live page from there on (the claim, the member of staff, the
 * server link and the delivery appear here as they happen), with the order's own page, the one
 * to keep, as its first action.
 */
export function SuccessRoute() {
  const { t } = useTranslation('pages');
  const [params] = useSearchParams();
  const orderId = orderIdFrom(params);
  // the key of the order's link: in the return URL, or kept by this tab at checkout; without
  // it the page still opens in this browser, whose session placed the order
  const orderKey = params.get('key') ?? (orderId !== null ? rememberedOrderKey(orderId) : null);
  const { isLoggedIn } = useUser();
  useConfetti();

  useEffect(() => {
    // The cart and its saved copy (localStorage cartItems) are emptied.
    useCartStore.getState().clear();
  }, []);

  return (
    <div className="container result-page result-page--success">
      <title>{t('common.pageTitle', { ns: 'translation', title: t('success.title') })}</title>
      <div className="result-page__hero result-page__hero--success result-page__hero--compact">
        <div className="result-page__icon" aria-hidden="true">
          <CheckCircleIcon size={28} />
        </div>
        <h1 className="result-page__title">{t('success.title')}</h1>
        <p className="result-page__lead">
          {orderId !== null ? t('success.leadWithOrder') : t('success.lead')}
        </p>
        <div className="result-page__actions">
          {orderId !== null ? (
            <Link to={paths.order.getHref(orderId, orderKey)} className={buttonClassName()}>
              {t('success.followOrder')}
            </Link>
          ) : null}
          {isLoggedIn ? (
            <Link
              to={paths.profile.getHref()}
              className={buttonClassName({ variant: 'secondary' })}
            >
              {t('success.myOrders')}
            </Link>
          ) : null}
        </div>
      </div>
      {orderId !== null ? (
        <TrackedOrderView id={orderId} orderKey={orderKey} confirming />
      ) : (
        <ShopSteps />
      )}
      <div className="result-page__actions">
        <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          {t('order.backToShop')}
        </Link>
      </div>
    </div>
  );
}

/** Without an order number: the shop's script, none of it done. */
function ShopSteps() {
  const { t } = useTranslation('pages');
  const site = useSite();
  const steps = site.data?.delivery_steps;
  if (!steps) return null;
  return (
    <section className="order-page__card">
      <DeliverySteps
        steps={steps}
        title={t('order.whatHappensNext')}
        estimateMinutes={site.data?.delivery_minutes}
      />
      <p>
        {t('success.questions')} <AskUs />.
      </p>
    </section>
  );
}
