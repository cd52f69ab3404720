import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import i18next, { type Resource, type ResourceKey } from 'i18next';
import { afterEach, beforeEach } from 'vitest';
import type { StoreApi } from 'zustand';

import { useToastStore } from '@/components/ui/toast';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';
import { CURRENCY_COOKIE } from '@/config/currencies';
import { LANGUAGE_COOKIE } from '@/config/languages';
import { useCurrencyChoice } from '@/lib/currency-choice';
import { startI18nWith } from '@/lib/i18n/i18n';

import { installDialogPolyfill } from './dialog-polyfill';

installDialogPolyfill();

// The tests read English: i18next starts at once with every language's messages (the app
// fetches one language's chunk; the tests that switch find the others here).
const messageFiles = import.meta.glob<ResourceKey>('/src/locales/*/*.json', {
  import: 'default',
  eager: true,
});
const resources: Resource = {};
for (const [file, messages] of Object.entries(messageFiles)) {
  const [language, namespace] = file.split('/').slice(-2) as [string, string];
  resources[language] = { ...resources[language], [namespace.replace(/\.json$/, '')]: messages };
}
startI18nWith(resources, 'en');

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
  reset(useCurrencyChoice),
];

beforeEach(() => {
  if (i18next.language !== 'en') void i18next.changeLanguage('en');
  document.cookie = `${LANGUAGE_COOKIE}=; path=/; max-age=0`;
  document.cookie = `${CURRENCY_COOKIE}=; path=/; max-age=0`;
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
