import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { seedQueryClient, takeBootstrap } from '@/app/bootstrap';
import { initCart } from '@/features/cart/stores/cart-store';
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

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
