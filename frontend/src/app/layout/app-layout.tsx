import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, type Location } from 'react-router';

import { Footer } from '@/app/layout/footer';
import { Navbar } from '@/app/layout/navbar';
import { Toaster } from '@/components/ui/toast';
import { getProductsQueryOptions } from '@/features/catalog/api/get-products';
import { useUser } from '@/features/auth/hooks/use-user';
import { useLiveEvents } from '@/app/layout/use-live-events';
import { ChatLauncher } from '@/features/chat/components/chat-launcher';
import { useSyncHoldings } from '@/features/cart/hooks/use-sync-holdings';
import { selectTakesADrop, useCartStore } from '@/features/cart/stores/cart-store';
import { useSite } from '@/features/site/api/get-site';
import { offerCurrencies } from '@/lib/currency-choice';

import './app-layout.css';

/**
 * The cart drawer's code loads just after the first render, not with the entry chunk: it shows
 * only when opened (the entry's budget, issue 36).
 */
const CartDrawer = lazy(async () => ({
  default: (await import('@/features/cart/components/cart-drawer')).CartDrawer,
}));

/** Staff's Live Chats button: its code loads for staff only, not with the storefront's entry. */
const LiveChatsLauncher = lazy(async () => ({
  default: (await import('@/features/live-chats/components/live-chats-launcher')).LiveChatsLauncher,
}));

/** Keeps prices, stock and names in the saved cart in step with the latest product list. */
function useSyncCartWithCatalog() {
  // A passive observer: it never fetches, it only hears what the pages load.
  const { data: products } = useQuery({ ...getProductsQueryOptions(), enabled: false });
  useEffect(() => {
    if (products) useCartStore.getState().syncProducts(products);
  }, [products]);
}

/**
 * The currencies prices may be shown in, as `GET /api/site` answers them (the page carried the
 * first ones): fetched again after a checkout met a changed rate.
 */
function useOfferedCurrencies() {
  const currencies = useSite().data?.currencies;
  useEffect(() => {
    if (currencies) offerCurrencies(currencies);
  }, [currencies]);
}

/**
 * Scroll positions are remembered per history entry. The first entry of every fresh page load
 * is keyed "default", so fall back to the address there: a new page never inherits the scroll
 * position of another one.
 */
function scrollKey(location: Location): string {
  return location.key === 'default' ? `${location.pathname}${location.search}` : location.key;
}

export function AppLayout() {
  const { t } = useTranslation();
  const cartButtonRef = useRef<HTMLButtonElement>(null);
  const { isStaff } = useUser();
  useSyncCartWithCatalog();
  useOfferedCurrencies();
  // what the buyer holds of the drops, asked while the cart holds one (or a bundle of one)
  useSyncHoldings({ enabled: useCartStore(selectTakesADrop) });
  useLiveEvents();

  return (
    <>
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <Navbar cartButtonRef={cartButtonRef} />
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <Suspense fallback={null}>
        <CartDrawer returnFocusRef={cartButtonRef} />
      </Suspense>
      {/* The buttons are tiny; the chat window and the staff panel load on first open. */}
      <ChatLauncher />
      {isStaff ? (
        <Suspense fallback={null}>
          <LiveChatsLauncher />
        </Suspense>
      ) : null}
      <Toaster />
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
