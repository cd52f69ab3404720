import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { AdminInventoryRoute } from '@/app/routes/admin-inventory';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import type { AdminProduct } from '@/features/admin-products/types';
import { makeProduct } from '@/testing/factories';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function adminProduct(overrides: Partial<AdminProduct> = {}): AdminProduct {
  return { ...makeProduct(overrides), archived: false, ...overrides };
}

function renderInventory(user: User | null) {
  return renderWithProviders(<AdminInventoryRoute />, {
    url: '/admin/inventory',
    path: '/admin/inventory',
    queryClient: queryClientWithSession(user),
  });
}

const superAdmin = () => makeUser({ account_type: 'super_admin' });

describe('/admin/inventory', () => {
  it('is for super_admins only', () => {
    const calls = fakeApi({});
    renderInventory(makeUser({ account_type: 'admin' }));
    expect(
      screen.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('lists the products that are not bundles, with their stock badges', async () => {
    fakeApi({
      'GET /admin/products': () =>
        jsonResponse([
          adminProduct({ id: 1, name: 'Raccoon', stock: 0 }),
          adminProduct({ id: 2, name: 'Starter Bundle', stock: 5, related_ids: [1] }),
          adminProduct({ id: 3, name: 'Bee', stock: 12 }),
        ]),
      'GET /admin/products/standalone': () => jsonResponse([2]),
    });
    renderInventory(superAdmin());
    expect(screen.getByRole('heading', { name: 'Inventory Management' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Stock per product' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Raccoon'),
      expect.stringContaining('Bee'),
    ]);
    expect(within(rows[0] as HTMLElement).getByText('Out of Stock')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('12 in Stock')).toBeInTheDocument();
    expect(screen.queryByText('Starter Bundle')).not.toBeInTheDocument();
  });

  it('keeps digits only and saves on Enter; an empty box saves 0', async () => {
    const bee = adminProduct({ id: 3, name: 'Bee', stock: 12 });
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse([bee]),
      'GET /admin/products/standalone': () => jsonResponse([]),
      'POST /admin/products/3/inventory': (body) =>
        jsonResponse({ ...bee, stock: (body as { inventory: number }).inventory }),
    });
    const { user } = renderInventory(superAdmin());
    const box = await screen.findByRole('textbox', { name: 'Bee' });
    await user.clear(box);
    await user.type(box, '2a-5');
    expect(box).toHaveValue('25');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('25 in Stock')).toBeInTheDocument();
    await user.clear(box);
    await user.tab();
    expect(await screen.findByText('Out of Stock')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.path === '/admin/products/3/inventory').map((call) => call.body),
    ).toEqual([{ inventory: 25 }, { inventory: 0 }]);
  });

  it('changes the stock one at a time with plus and minus', async () => {
    const bee = adminProduct({ id: 3, name: 'Bee', stock: 2 });
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse([bee]),
      'GET /admin/products/standalone': () => jsonResponse([]),
      'POST /admin/products/3/change': (body) =>
        jsonResponse({
          ...bee,
          stock: (body as { type: string }).type === 'plus' ? 3 : 1,
        }),
    });
    const { user } = renderInventory(superAdmin());
    await user.click(await screen.findByRole('button', { name: 'One more Bee' }));
    expect(await screen.findByText('3 in Stock')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'One less Bee' }));
    expect(await screen.findByText('1 in Stock')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.path === '/admin/products/3/change').map((call) => call.body),
    ).toEqual([
      { type: 'plus', inventory: 1 },
      { type: 'minus', inventory: 1 },
    ]);
  });

  it('offers no minus for unlimited stock, and plus still works', async () => {
    const bee = adminProduct({ id: 3, name: 'Bee', stock: null });
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse([bee]),
      'GET /admin/products/standalone': () => jsonResponse([]),
      'POST /admin/products/3/change': () => jsonResponse({ ...bee, stock: 1 }),
    });
    const { user } = renderInventory(superAdmin());
    const minus = await screen.findByRole('button', { name: 'One less Bee' });
    expect(minus).toBeDisabled();
    await user.click(minus);
    expect(calls.filter((call) => call.path === '/admin/products/3/change')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'One more Bee' }));
    expect(await screen.findByText('1 in Stock')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'One less Bee' })).toBeEnabled();
  });

  it('says "No standalone products found..." when every product is a bundle', async () => {
    fakeApi({
      'GET /admin/products': () => jsonResponse([adminProduct({ id: 2, related_ids: [1] })]),
      'GET /admin/products/standalone': () => jsonResponse([2]),
    });
    renderInventory(superAdmin());
    await waitFor(() =>
      expect(screen.getByText('No standalone products found...')).toBeInTheDocument(),
    );
  });
});
