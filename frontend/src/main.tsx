import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { initCart } from '@/features/cart/stores/cart-store';

import '@/styles/global.css';

// Read the saved cart before the first render, so the cart never flashes empty (spec §4).
initCart();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
