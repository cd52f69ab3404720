import { describe, expect, it, vi } from 'vitest';

import { getProductsQueryOptions } from '@/features/catalog/api/get-products';
import { makeProduct } from '@/testing/factories';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

describe('catalog API', () => {
  it('keys the list as ["products"], the prefix later product queries share', () => {
    expect(getProductsQueryOptions().queryKey).toEqual(['products']);
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
});
