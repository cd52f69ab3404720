import { describe, expect, it, vi } from 'vitest';

import { getProductQueryOptions } from '@/features/catalog/api/get-product';
import { getProductsQueryOptions } from '@/features/catalog/api/get-products';
import { getRelatedIdsQueryOptions } from '@/features/catalog/api/get-related-ids';
import { makeProduct } from '@/testing/factories';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

describe('catalog API', () => {
  it('keys queries under products, so invalidating ["products"] refreshes them all', () => {
    expect(getProductsQueryOptions().queryKey).toEqual(['products']);
    expect(getProductQueryOptions(3).queryKey).toEqual(['products', 3]);
    expect(getRelatedIdsQueryOptions(3).queryKey).toEqual(['products', 3, 'related-ids']);
  });

  it('fetches the list revalidating with the server (cache: no-cache)', async () => {
    const products = [makeProduct({ id: 1 })];
    const fetchMock = vi.fn(async () => jsonResponse(products));
    vi.stubGlobal('fetch', fetchMock);
    await expect(createTestQueryClient().fetchQuery(getProductsQueryOptions())).resolves.toEqual(
      products,
    );
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/products',
      expect.objectContaining({ cache: 'no-cache', credentials: 'include' }),
    );
  });

  it('fetches one product and reports a missing one with the server message', async () => {
    const raccoon = makeProduct({ id: 3, name: 'Raccoon' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/products/3'
          ? jsonResponse(raccoon)
          : jsonResponse({ message: 'Product not found.', errors: {} }, 404),
      ),
    );
    const client = createTestQueryClient();
    await expect(client.fetchQuery(getProductQueryOptions(3))).resolves.toEqual(raccoon);
    await expect(client.fetchQuery(getProductQueryOptions(4))).rejects.toMatchObject({
      status: 404,
      message: 'Product not found.',
    });
  });

  it('fetches the ids a bundle is made of', async () => {
    const fetchMock = vi.fn(async () => jsonResponse([4, 5]));
    vi.stubGlobal('fetch', fetchMock);
    await expect(createTestQueryClient().fetchQuery(getRelatedIdsQueryOptions(9))).resolves.toEqual(
      [4, 5],
    );
    expect(fetchMock).toHaveBeenCalledWith('/api/products/9/related-ids', expect.anything());
  });
});
