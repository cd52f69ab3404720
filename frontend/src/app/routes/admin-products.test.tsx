import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { AdminProductsRoute } from '@/app/routes/admin-products';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import type { AdminProduct } from '@/features/admin-products/types';
import { stubApi } from '@/testing/api-stub';
import { makeProduct } from '@/testing/factories';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function adminProduct(overrides: Partial<AdminProduct> = {}): AdminProduct {
  return { ...makeProduct(overrides), archived: false, ...overrides };
}

function renderAdminProducts(user: User | null) {
  return renderWithProviders(<AdminProductsRoute />, {
    url: '/admin/products',
    path: '/admin/products',
    queryClient: queryClientWithSession(user),
  });
}

const superAdmin = () => makeUser({ account_type: 'super_admin', name: 'Sue' });

describe('/admin/products access', () => {
  it.each([
    ['a visitor', null],
    ['a customer', makeUser({ account_type: 'customer' })],
    ['an admin', makeUser({ account_type: 'admin' })],
  ])('tells %s "Access denied. Super Admins only." and asks the API nothing', (_who, user) => {
    const calls = fakeApi({});
    renderAdminProducts(user);
    expect(
      screen.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Product' })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

describe('/admin/products for a super_admin', () => {
  it('lists the products with their badges, including archived ones', async () => {
    fakeApi({
      'GET /admin/products': () =>
        jsonResponse([
          adminProduct({ id: 1, name: 'Raccoon', stock: 3 }),
          adminProduct({ id: 2, name: 'Old Owl', stock: 0, archived: true }),
        ]),
    });
    renderAdminProducts(superAdmin());
    const raccoon = await screen.findByRole('article', { name: 'Raccoon' });
    expect(within(raccoon).getByText('3 Stock Left')).toBeInTheDocument();
    const owl = screen.getByRole('article', { name: 'Old Owl' });
    expect(within(owl).getByText('Archived')).toBeInTheDocument();
    expect(within(owl).getByText('Out of Stock')).toBeInTheDocument();
    // The drag handle is reachable and says what it does.
    const handle = within(raccoon).getByRole('button', { name: 'Reorder Raccoon, position 1' });
    expect(handle).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('link', { name: 'Inventory' })).toHaveAttribute(
      'href',
      '/admin/inventory',
    );
    expect(screen.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/admin/orders');
  });

  it('moves a card with its buttons: the new order is saved and focus stays on the card', async () => {
    let listed = [
      adminProduct({ id: 1, name: 'Raccoon' }),
      adminProduct({ id: 2, name: 'Kitsune' }),
      adminProduct({ id: 3, name: 'Disco Bee' }),
    ];
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse(listed),
      'POST /admin/products/reorder': (body) => {
        const { updates } = body as { updates: { id: number; sort_order: number }[] };
        listed = updates.flatMap(({ id }) => listed.filter((product) => product.id === id));
        return jsonResponse({ message: 'Product order saved.' });
      },
    });
    const { user } = renderAdminProducts(superAdmin());
    const bee = await screen.findByRole('article', { name: 'Disco Bee' });
    expect(
      within(bee).getByRole('button', { name: 'Move Disco Bee down one place' }),
    ).toBeDisabled();
    await user.click(within(bee).getByRole('button', { name: 'Move Disco Bee to first place' }));
    expect(await screen.findByText('Product order saved.')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/admin/products/reorder')?.body).toEqual({
      updates: [
        { id: 3, sort_order: 0 },
        { id: 1, sort_order: 1 },
        { id: 2, sort_order: 2 },
      ],
    });
    const moved = screen.getByRole('article', { name: 'Disco Bee' });
    expect(within(moved).getByText('Position 1')).toBeInTheDocument();
    // "To first" is disabled now, so focus goes to the drag handle of the moved card.
    expect(
      within(moved).getByRole('button', { name: 'Reorder Disco Bee, position 1' }),
    ).toHaveFocus();
    expect(screen.getByText('Disco Bee moved to position 1.')).toBeInTheDocument();

    await user.click(within(moved).getByRole('button', { name: 'Move Disco Bee down one place' }));
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Reorder Disco Bee, position 2' }),
      ).toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Move Disco Bee down one place' })).toHaveFocus();
  });

  it('checks the required fields before sending anything', async () => {
    const calls = fakeApi({ 'GET /admin/products': () => jsonResponse([]) });
    const { user } = renderAdminProducts(superAdmin());
    await screen.findByText('No products yet');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'Enter a name.',
    );
    expect(screen.getByText('Enter a price.')).toBeInTheDocument();
    expect(screen.getByText('Enter a category.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Price ($)' }), 'cheap');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(screen.getByText('The price must be a number, e.g. 4.99.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('shows the server’s 422 messages under their fields', async () => {
    fakeApi({
      'GET /admin/products': () => jsonResponse([adminProduct({ id: 1, name: 'Raccoon' })]),
      'POST /admin/products': () =>
        validationError({
          name: ['A product with this name exists.'],
          image: ['The image must be PNG, JPEG, WebP or GIF.'],
          'related_ids.0': ['A bundle cannot contain another bundle.'],
        }),
    });
    const { user } = renderAdminProducts(superAdmin());
    await screen.findByRole('article', { name: 'Raccoon' });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Raccoon');
    await user.type(screen.getByRole('textbox', { name: /^Category/ }), 'Pets');
    await user.type(screen.getByRole('textbox', { name: 'Price ($)' }), '4.99');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('A product with this name exists.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('The image must be PNG, JPEG, WebP or GIF.')).toBeInTheDocument();
    expect(screen.getByText('A bundle cannot contain another bundle.')).toBeInTheDocument();
  });

  it('creates a product from the form as multipart with the contract fields', async () => {
    const created = adminProduct({ id: 9, name: 'Golden Bee', price: 2.5, category: 'Pets' });
    const fetchBodies: FormData[] = [];
    fakeApi({
      'GET /admin/products': () => jsonResponse([adminProduct({ id: 1, name: 'Raccoon' })]),
      'POST /admin/products': () => jsonResponse(created, 201),
    });
    const realFetch = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (init?.body instanceof FormData) fetchBodies.push(init.body);
        return realFetch(url, init);
      }),
    );
    const { user } = renderAdminProducts(superAdmin());
    await screen.findByRole('article', { name: 'Raccoon' });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Golden Bee');
    await user.type(screen.getByRole('textbox', { name: /^Category/ }), 'Pets');
    await user.type(screen.getByRole('textbox', { name: 'Price ($)' }), '2.5');
    await user.type(screen.getByRole('textbox', { name: /^Stock/ }), '7');
    await user.click(screen.getByRole('checkbox', { name: 'Dupe warning when bought again' }));
    await user.click(screen.getByRole('checkbox', { name: 'Raccoon' }));
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Golden Bee created.')).toBeInTheDocument();
    const body = fetchBodies[0];
    expect(body?.get('name')).toBe('Golden Bee');
    expect(body?.get('stock')).toBe('7');
    expect(body?.get('dupe_warning')).toBe('1');
    expect(body?.getAll('related_ids[]')).toEqual(['1']);
    // The form is empty again and the new product is on the grid.
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(screen.getByRole('article', { name: 'Golden Bee' })).toBeInTheDocument();
  });

  it('edits a product in a modal filled with it, updating the card in place', async () => {
    const raccoon = adminProduct({ id: 3, name: 'Raccoon', price: 4.99, category: 'Pets' });
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse([raccoon]),
      'POST /admin/products/3': () => jsonResponse({ ...raccoon, name: 'Raccoon Deluxe' }),
    });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(await screen.findByRole('button', { name: 'Edit Raccoon' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Raccoon' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Raccoon');
    expect(within(dialog).getByRole('textbox', { name: 'Price ($)' })).toHaveValue('4.99');
    await user.clear(name);
    await user.type(name, 'Raccoon Deluxe');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('article', { name: 'Raccoon Deluxe' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST' && call.path === '/admin/products/3')).toBe(
      true,
    );
  });

  it('counts the Position as the cards do, and a new one saves the list in that order (issue 23)', async () => {
    const owl = adminProduct({ id: 5, name: 'Owl', sort_order: null });
    const raccoon = adminProduct({ id: 3, name: 'Raccoon', sort_order: 1 });
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse([owl, raccoon]),
      'POST /admin/products/3': () => jsonResponse(raccoon),
      'POST /admin/products/reorder': () => jsonResponse({ message: 'Order saved.' }),
    });
    const { user } = renderAdminProducts(superAdmin());
    const card = await screen.findByRole('article', { name: 'Raccoon' });
    expect(within(card).getByText('Position 2')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Edit Raccoon' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Raccoon' });
    const position = within(dialog).getByRole('textbox', { name: /^Position/ });
    expect(position).toHaveValue('2');
    await user.clear(position);
    await user.type(position, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/admin/products/reorder')?.body).toEqual({
        updates: [
          { id: 3, sort_order: 0 },
          { id: 5, sort_order: 1 },
        ],
      }),
    );
    // the product is saved first, then the list in its new order
    const paths = calls.filter((call) => call.method === 'POST').map((call) => call.path);
    expect(paths).toEqual(['/admin/products/3', '/admin/products/reorder']);
  });

  it('says "Product not found." when the product was removed meanwhile', async () => {
    const raccoon = adminProduct({ id: 3, name: 'Raccoon' });
    fakeApi({ 'GET /admin/products': () => jsonResponse([raccoon]) });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(await screen.findByRole('button', { name: 'Edit Raccoon' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Product not found.');
  });

  it('reports "Failed to delete product." when the delete fails', async () => {
    fakeApi({
      'GET /admin/products': () => jsonResponse([adminProduct({ id: 4, name: 'Owl' })]),
      'DELETE /admin/products/4': () => jsonResponse({ message: 'Server error.' }, 500),
    });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(await screen.findByRole('button', { name: 'Delete Owl' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Owl?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Failed to delete product.')).toBeInTheDocument();
  });

  it('shows an archived product as Archived after a delete that archives it', async () => {
    fakeApi({
      'GET /admin/products': () => jsonResponse([adminProduct({ id: 4, name: 'Owl' })]),
      'DELETE /admin/products/4': () =>
        jsonResponse({ message: 'Product archived.', archived: true }),
    });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(await screen.findByRole('button', { name: 'Delete Owl' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Product archived.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Owl' })).getByText('Archived'),
    ).toBeInTheDocument();
  });

  it('creates a promo code in capitals and says so', async () => {
    const calls = fakeApi({
      'GET /admin/products': () => jsonResponse([]),
      'POST /admin/promo-codes': (body) => jsonResponse(body, 201),
    });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(screen.getByRole('button', { name: 'Add Promo Code' }));
    const dialog = screen.getByRole('dialog', { name: 'Add promo code' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Code' }), 'summer10');
    expect(within(dialog).getByRole('textbox', { name: 'Code' })).toHaveValue('SUMMER10');
    await user.type(within(dialog).getByRole('textbox', { name: 'Discount (%)' }), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Create promo code' }));
    expect(await screen.findByText('Promo code created successfully!')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/admin/promo-codes')?.body).toEqual({
      code: 'SUMMER10',
      discount_percent: 10,
      expires_at: null,
    });
  });

  it('says "Failed to create promo code." and shows the field message on a 422', async () => {
    fakeApi({
      'GET /admin/products': () => jsonResponse([]),
      'POST /admin/promo-codes': () => validationError({ code: ['This code already exists.'] }),
    });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(screen.getByRole('button', { name: 'Add Promo Code' }));
    const dialog = screen.getByRole('dialog', { name: 'Add promo code' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Code' }), 'SUMMER10');
    await user.type(within(dialog).getByRole('textbox', { name: 'Discount (%)' }), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Create promo code' }));
    expect(await screen.findByText('Failed to create promo code.')).toBeInTheDocument();
    expect(within(dialog).getByText('This code already exists.')).toBeInTheDocument();
  });

  it('asks for a code and a discount before sending a promo code', async () => {
    const calls = fakeApi({ 'GET /admin/products': () => jsonResponse([]) });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(screen.getByRole('button', { name: 'Add Promo Code' }));
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect(screen.getByText('Enter a code.')).toBeInTheDocument();
    expect(screen.getByText('Enter a discount.')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(false));
  });
});

describe('a drop in the admin product form (issue 25)', () => {
  it('sends Release at as RFC 3339 in UTC and Max per account, with the zone beside the field', async () => {
    const { callsTo } = stubApi({
      'GET /admin/products': () => jsonResponse([adminProduct({ id: 1, name: 'Raccoon' })]),
      'POST /admin/products': () => jsonResponse(adminProduct({ id: 9, name: 'Night Owl' }), 201),
    });
    const { user } = renderAdminProducts(superAdmin());
    await screen.findByRole('article', { name: 'Raccoon' });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Night Owl');
    await user.type(screen.getByRole('textbox', { name: /^Category/ }), 'Pets');
    await user.type(screen.getByRole('textbox', { name: 'Price ($)' }), '9.99');
    const releaseAt = screen.getByLabelText(/^Release at/);
    expect(releaseAt).toHaveAttribute('type', 'datetime-local');
    // the tests run in UTC
    expect(releaseAt.closest('.form-field')).toHaveTextContent('UTC');
    fireEvent.change(releaseAt, { target: { value: '2026-11-28T10:30' } });
    await user.type(screen.getByRole('spinbutton', { name: /^Max per account/ }), '1');
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    expect(await screen.findByText('Night Owl created.')).toBeInTheDocument();
    const body = callsTo('POST /admin/products')[0]?.body as FormData;
    expect(body.get('release_at')).toBe('2026-11-28T10:30:00.000Z');
    expect(body.get('max_per_account')).toBe('1');
  });

  it('clears both with empty values, and shows the server’s 422 under the fields', async () => {
    const owl = adminProduct({
      id: 4,
      name: 'Night Owl',
      released: false,
      release_at: '2026-11-28T10:30:00Z',
      max_per_account: 2,
    });
    const { callsTo, handlers } = stubApi({
      'GET /admin/products': () => jsonResponse([owl]),
      'POST /admin/products/4': () =>
        validationError({
          release_at: ['The release time must be RFC 3339 with an offset.'],
          max_per_account: ['The limit must be from 1 to 20.'],
        }),
    });
    const { user } = renderAdminProducts(superAdmin());
    const card = await screen.findByRole('article', { name: 'Night Owl' });
    expect(within(card).getByText(/^Drop /)).toBeInTheDocument();
    expect(within(card).getByText('Max 2 per account')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Edit Night Owl' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Night Owl' });
    const releaseAt = within(dialog).getByLabelText(/^Release at/);
    const cap = within(dialog).getByRole('spinbutton', { name: /^Max per account/ });
    expect(releaseAt).toHaveValue('2026-11-28T10:30');
    expect(cap).toHaveValue(2);

    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('The release time must be RFC 3339 with an offset.'),
    ).toBeInTheDocument();
    expect(releaseAt).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('The limit must be from 1 to 20.')).toBeInTheDocument();
    expect(cap).toHaveAttribute('aria-invalid', 'true');
    // untouched: neither was sent
    const untouched = callsTo('POST /admin/products/4')[0]?.body as FormData;
    expect(untouched.has('release_at')).toBe(false);
    expect(untouched.has('max_per_account')).toBe(false);

    handlers['POST /admin/products/4'] = () =>
      jsonResponse({ ...owl, released: true, release_at: null, max_per_account: null });
    fireEvent.change(releaseAt, { target: { value: '' } });
    await user.clear(cap);
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const cleared = callsTo('POST /admin/products/4')[1]?.body as FormData;
    expect(cleared.get('release_at')).toBe('');
    expect(cleared.get('max_per_account')).toBe('');
  });

  it('shows the server’s 409 (orders already hold the drop) under Release at', async () => {
    const owl = adminProduct({ id: 4, name: 'Night Owl' });
    stubApi({
      'GET /admin/products': () => jsonResponse([owl]),
      'POST /admin/products/4': () =>
        jsonResponse({ message: 'Orders already hold units of this product.' }, 409),
    });
    const { user } = renderAdminProducts(superAdmin());
    await user.click(await screen.findByRole('button', { name: 'Edit Night Owl' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Night Owl' });
    const releaseAt = within(dialog).getByLabelText(/^Release at/);
    fireEvent.change(releaseAt, { target: { value: '2099-01-01T00:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('Orders already hold units of this product.'),
    ).toBeInTheDocument();
    expect(releaseAt).toHaveAttribute('aria-invalid', 'true');
  });
});
