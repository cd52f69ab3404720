import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { seedQueryClient, takeBootstrap } from '@/app/bootstrap';
import { initCart } from '@/features/cart/stores/cart-store';
import { offerCurrencies } from '@/lib/currency-choice';
import { startI18n } from '@/lib/i18n/i18n';
import { resumeEventsFrom } from '@/lib/live-events';
import { createQueryClient } from '@/lib/query-client';

import '@/styles/global.css';

// Read the saved cart before the first render, so the cart never flashes empty (docs/product.md, Behaviour).
initCart();

// The page carries the session and, on the storefront, the product list: the first render
// waits for no round trip (the first load's longest chain).
const queryClient = createQueryClient();
const bootstrap = takeBootstrap();
seedQueryClient(queryClient, bootstrap, window.location.pathname);
if (bootstrap.events !== undefined) resumeEventsFrom(bootstrap.events);
// the first render shows prices in the shopper's currency, not the base's first
if (bootstrap.currencies) offerCurrencies(bootstrap.currencies);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The viewer's language's messages (their own chunk) arrive alongside the session check; the
// first render waits for them, so no page flashes in another language.
void startI18n().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
