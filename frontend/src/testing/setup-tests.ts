import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

import { useToastStore } from '@/components/ui/toast';
import { useCartStore } from '@/features/cart/stores/cart-store';

import { installDialogPolyfill } from './dialog-polyfill';

installDialogPolyfill();

beforeEach(() => {
  window.localStorage.clear();
  useCartStore.setState({
    items: [],
    hydrated: true,
    isOpen: false,
    caps: new Map(),
    held: new Map(),
  });
  useToastStore.setState({ toasts: [] });
});

afterEach(() => {
  cleanup();
  document.body.className = '';
});

// jsdom has no layout: scrolling is a no-op (React Router's ScrollRestoration calls it).
window.scrollTo = () => undefined;
