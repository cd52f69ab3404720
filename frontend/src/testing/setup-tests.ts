import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import type { StoreApi } from 'zustand';

import { useToastStore } from '@/components/ui/toast';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';

import { installDialogPolyfill } from './dialog-polyfill';

installDialogPolyfill();

// Test files that replace no module share one module graph and document per worker (see
// vite.config.ts): each test starts from the stores' first state, empty storage and an empty page.
function reset<T>(store: StoreApi<T>): () => void {
  const first = store.getInitialState();
  return () => store.setState(first, true);
}
const resets = [
  reset(useCartStore),
  reset(useToastStore),
  reset(useChatWidgetStore),
  reset(useDiscordLinkStore),
];

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  resets.forEach((run) => run());
  useCartStore.setState({
    items: [],
    hydrated: true,
    isOpen: false,
    caps: new Map(),
    held: new Map(),
  });
});

afterEach(() => {
  cleanup();
  document.body.className = '';
  document.body.replaceChildren();
});

// jsdom has no layout: scrolling is a no-op (React Router's ScrollRestoration calls it).
window.scrollTo = () => undefined;
