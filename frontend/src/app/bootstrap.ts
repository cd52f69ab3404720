import type { QueryClient } from '@tanstack/react-query';

import { sessionQueryKey, toSession } from '@/features/auth/api/get-session';
import { getProductsQueryOptions } from '@/features/catalog/api/get-products';
import type { Schemas } from '@/types/api';

/**
 * What the server writes into the page for the first render (crates/app/src/routes/spa.rs):
 * the answer of GET /api/auth/check for this visitor and, on the storefront's pages, the
 * answer of GET /api/products, the number of the last event they hold, and the currencies
 * offered (GET /api/site's). Any may be
 * missing; the app then asks as usual.
 */
export type Bootstrap = {
  /** The last event the page's data holds: the app's event stream resumes from it. */
  events?: number;
  session?: Schemas['AuthCheck'];
  products?: Schemas['Product'][];
  /** The currencies offered now (`GET /api/site`'s), so prices draw in the shopper's at once. */
  currencies?: Schemas['SiteCurrency'][];
};

export const BOOTSTRAP_ELEMENT_ID = 'shop-bootstrap';

/** Reads the page's bootstrap element once and removes it; anything unreadable counts as none. */
export function takeBootstrap(doc: Document = document): Bootstrap {
  const element = doc.getElementById(BOOTSTRAP_ELEMENT_ID);
  if (!element) return {};
  element.remove();
  try {
    const value: unknown = JSON.parse(element.textContent ?? '');
    if (typeof value !== 'object' || value === null) return {};
    const { events, session, products, currencies } = value as Record<string, unknown>;
    return {
      events:
        typeof events === 'number' && Number.isSafeInteger(events) && events >= 0
          ? events
          : undefined,
      session:
        typeof session === 'object' && session !== null
          ? (session as Schemas['AuthCheck'])
          : undefined,
      products: Array.isArray(products) ? (products as Schemas['Product'][]) : undefined,
      currencies: Array.isArray(currencies) ? (currencies as Schemas['SiteCurrency'][]) : undefined,
    };
  } catch {
    return {};
  }
}

/** Whether the page at `pathname` draws the product list at once. */
function showsProducts(pathname: string): boolean {
  return pathname === '/' || pathname.startsWith('/product/');
}

/**
 * Fills the cache with the page's own answers, so the first render needs no round trip; what
 * the page did not carry is asked for now (the product list alongside the session check that
 * gates the first render, instead of after it).
 */
export function seedQueryClient(
  queryClient: QueryClient,
  bootstrap: Bootstrap,
  pathname: string,
): void {
  if (bootstrap.session) {
    queryClient.setQueryData(sessionQueryKey, toSession(bootstrap.session));
  }
  if (bootstrap.products) {
    queryClient.setQueryData(getProductsQueryOptions().queryKey, bootstrap.products);
  } else if (showsProducts(pathname)) {
    void queryClient.prefetchQuery(getProductsQueryOptions());
  }
}
