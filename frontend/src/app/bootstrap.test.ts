import { QueryClient } from '@tanstack/react-query';

import { seedQueryClient, takeBootstrap, BOOTSTRAP_ELEMENT_ID } from '@/app/bootstrap';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { stubApi } from '@/testing/api-stub';
import { makeProduct } from '@/testing/factories';
import { jsonResponse } from '@/testing/test-utils';

function writeBootstrap(text: string) {
  const element = document.createElement('script');
  element.id = BOOTSTRAP_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = text;
  document.head.append(element);
}

const user = { id: 7, name: 'Ann', email: 'ann@example.com', account_type: 'customer' as const };

describe('takeBootstrap', () => {
  it('reads the session and the product list once and removes the element', () => {
    const product = makeProduct({ name: 'Raccoon </script>' });
    writeBootstrap(
      JSON.stringify({
        events: 41,
        session: { loggedIn: true, user },
        products: [product],
      }).replace(/</g, '\\u003c'),
    );
    expect(takeBootstrap()).toEqual({
      events: 41,
      session: { loggedIn: true, user },
      products: [product],
    });
    expect(document.getElementById(BOOTSTRAP_ELEMENT_ID)).toBeNull();
    expect(takeBootstrap()).toEqual({});
  });

  it('counts a missing or unreadable element as nothing', () => {
    expect(takeBootstrap()).toEqual({});
    writeBootstrap('{"session":');
    expect(takeBootstrap()).toEqual({});
    writeBootstrap('{"events":-1,"session":"yes","products":{}}');
    expect(takeBootstrap()).toEqual({ events: undefined, session: undefined, products: undefined });
    writeBootstrap('{"events":"41"}');
    expect(takeBootstrap().events).toBeUndefined();
  });
});

describe('seedQueryClient', () => {
  it('puts the page’s answers in the cache without asking the server', () => {
    const { calls } = stubApi({});
    const client = new QueryClient();
    const products = [makeProduct()];
    seedQueryClient(client, { session: { loggedIn: true, user }, products }, '/');
    expect(client.getQueryData(sessionQueryKey)).toEqual({ loggedIn: true, user });
    expect(client.getQueryData(['products'])).toEqual(products);
    expect(client.getQueryState(['products'])?.isInvalidated).toBe(false);
    expect(calls).toEqual([]);
  });

  it('keeps a session answer without a user as logged out', () => {
    const client = new QueryClient();
    seedQueryClient(client, { session: { loggedIn: true, user: null } }, '/about');
    expect(client.getQueryData(sessionQueryKey)).toEqual({ loggedIn: false, user: null });
    expect(client.getQueryData(['products'])).toBeUndefined();
  });

  it('asks for the product list on a storefront page that came without it', async () => {
    const products = [makeProduct()];
    const { calls } = stubApi({ 'GET /products': () => jsonResponse(products) });
    const client = new QueryClient();
    seedQueryClient(client, {}, '/product/3');
    await vi.waitFor(() => expect(client.getQueryData(['products'])).toEqual(products));
    expect(calls.map((call) => call.path)).toEqual(['/products']);
    expect(client.getQueryData(sessionQueryKey)).toBeUndefined();
  });
});
