import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { stubApi } from '@/testing/api-stub';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

import { adminProductsQueryKey } from './get-admin-products';
import { useReorderProducts } from './reorder-products';
import type { AdminProduct } from '@/features/admin-products/types';

vi.mock('@/components/ui/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const product = (id: number) => ({ id, name: `P${id}`, sort_order: id }) as unknown as AdminProduct;
const [a, b, c] = [product(1), product(2), product(3)];

/** A reply the test sends when it wants to. */
function deferred() {
  let resolve: (response: Response) => void = () => {};
  const promise = new Promise<Response>((done) => (resolve = done));
  return { promise, resolve };
}

describe('saving the order', () => {
  it('sends two quick moves one after another and reads the list back after the last', async () => {
    const [first, second] = [deferred(), deferred()];
    const replies = [first.promise, second.promise];
    const api = stubApi({
      'POST /admin/products/reorder': () =>
        replies.shift() ?? Promise.reject(new Error('a third save')),
    });
    const client = createTestQueryClient();
    client.setQueryData(adminProductsQueryKey, [a, b, c]);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useReorderProducts(), { wrapper });
    const ids = () => client.getQueryData<AdminProduct[]>(adminProductsQueryKey)?.map((p) => p.id);
    const sent = () =>
      api
        .callsTo('POST /admin/products/reorder')
        .map((call) => (call.body as { updates: { id: number }[] }).updates.map((u) => u.id));

    // "down one place", then at once "to first place"
    act(() => result.current.mutate([a, c, b]));
    await waitFor(() => expect(sent()).toHaveLength(1));
    act(() => result.current.mutate([c, a, b]));
    await waitFor(() => expect(ids()).toEqual([3, 1, 2])); // shown at once
    // the second save waits in its scope for the first's answer (react-query pauses it there)
    const saves = () => client.getMutationCache().getAll();
    await waitFor(() => expect(saves().map((save) => save.state.isPaused)).toEqual([false, true]));
    expect(sent()).toEqual([[1, 3, 2]]);

    first.resolve(jsonResponse({ message: 'Product order saved.' }));
    await waitFor(() =>
      expect(sent()).toEqual([
        [1, 3, 2],
        [3, 1, 2],
      ]),
    );
    // not read back between the saves: it would show the first save's order over the second's
    const readBack = () => client.getQueryState(adminProductsQueryKey)?.isInvalidated;
    expect(readBack()).toBe(false);
    expect(ids()).toEqual([3, 1, 2]);

    second.resolve(jsonResponse({ message: 'Product order saved.' }));
    await waitFor(() => expect(readBack()).toBe(true));
  });
});
