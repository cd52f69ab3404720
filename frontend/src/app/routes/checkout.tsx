import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ArrowLeftIcon, CartIcon } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
import { queryKeys } from '@/lib/query-keys';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { useUser } from '@/features/auth/hooks/use-user';
import { useProducts } from '@/features/catalog/api/get-products';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { CheckoutView, type CheckoutNotice } from '@/features/checkout/components/checkout-view';
import { Notice } from '@/features/checkout/components/notice';
import { useSite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

import './checkout.css';

/** What /discord/callback hands to this page through the router's state. */
export type CheckoutLocationState = { checkoutNotice?: CheckoutNotice } | null;

export function CheckoutRoute() {
  const { t } = useTranslation();
  const items = useCartStore((state) => state.items);
  const { user } = useUser();
  // The live list: the stock check uses it, and the layout keeps the cart's prices in step.
  const products = useProducts({ refetchInterval: env.PRODUCTS_POLL_MS });
  const site = useSite();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  // The message /discord/callback left is shown once: a reload or a Back does not repeat it.
  const [notice] = useState(() => (location.state as CheckoutLocationState)?.checkoutNotice);
  useEffect(() => {
    if ((location.state as CheckoutLocationState)?.checkoutNotice) {
      void navigate('.', { replace: true, state: null });
    }
  }, [location.state, navigate]);

  return (
    <div className="container checkout-page">
      <title>{t('common.pageTitle', { title: t('checkout.title') })}</title>
      <Link
        to={paths.home.getHref()}
        className={buttonClassName({ variant: 'ghost', className: 'checkout-page__back' })}
      >
        <ArrowLeftIcon size={18} />
        {t('checkout.continueShopping')}
      </Link>
      <h1 className="checkout-page__title">{t('checkout.title')}</h1>
      {items.length === 0 ? (
        <>
          {notice ? (
            <Notice tone={notice.tone}>
              <p>{notice.message}</p>
            </Notice>
          ) : null}
          <StateMessage
            icon={<CartIcon size={28} />}
            title={t('cart.empty')}
            description={t('checkout.emptyHint')}
            action={
              <Link to={paths.home.getHref()} className={buttonClassName()}>
                {t('cart.browse')}
              </Link>
            }
          />
        </>
      ) : (
        <CheckoutView
          items={items}
          liveProducts={products.data}
          userId={user?.id ?? null}
          paypalEnabled={site.data?.paypal_enabled === true}
          notice={notice ?? null}
          onPricesChanged={() =>
            // the prices of record, and the rates (a changed rate answers like a changed price)
            void Promise.all([
              queryClient.invalidateQueries({ queryKey: queryKeys.products }),
              queryClient.invalidateQueries({ queryKey: queryKeys.site }),
            ])
          }
          deliveryTime={<DeliveryTime />}
          discordInviteUrl={site.data?.discord_invite_url ?? null}
        />
      )}
    </div>
  );
}
