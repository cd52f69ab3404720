import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { initCart } from '@/features/cart/stores/cart-store';
import { getProductsQueryOptions } from '@/features/catalog/api/get-products';
import { createQueryClient } from '@/lib/query-client';

import '@/styles/global.css';

// Read the saved cart before the first render, so the cart never flashes empty (spec §4).
initCart();

// The storefront's pages draw the product list: ask for it now, alongside the session check
// that gates the first render, instead of after it (the first load's longest chain).
const queryClient = createQueryClient();
if (window.location.pathname === '/' || window.location.pathname.startsWith('/product/')) {
  void queryClient.prefetchQuery(getProductsQueryOptions());
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
