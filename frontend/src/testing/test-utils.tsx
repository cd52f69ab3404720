import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { AppProvider } from '@/app/provider';
import { Toaster } from '@/components/ui/toast';
import { queryKeys } from '@/lib/query-keys';
import type { Product } from '@/types/api';

/** A client that never retries, so failures show at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, gcTime: Infinity },
      mutations: { retry: false },
    },
  });
}

/** A query client already holding the product list, as if the API had answered. */
export function queryClientWithProducts(products: Product[]): QueryClient {
  const client = createTestQueryClient();
  client.setQueryData(queryKeys.products, products);
  return client;
}

type RenderOptions = {
  /** The URL to start at, e.g. "/product/3". */
  url?: string;
  /** The route pattern the element is mounted on, e.g. "/product/:id". */
  path?: string;
  queryClient?: QueryClient;
};

/** Renders `ui` inside the app's providers and a memory router, with a Toaster. */
export function renderWithProviders(
  ui: ReactElement,
  { url = '/', path = '/', queryClient = createTestQueryClient() }: RenderOptions = {},
) {
  const router = createMemoryRouter(
    [
      {
        path,
        element: (
          <>
            {ui}
            <Toaster />
          </>
        ),
      },
      { path: '*', element: <p>Another page</p> },
    ],
    { initialEntries: [url] },
  );
  const user = userEvent.setup();
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, user, router, queryClient };
}

/** A fetch answering JSON; pass to vi.stubGlobal('fetch', …). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
