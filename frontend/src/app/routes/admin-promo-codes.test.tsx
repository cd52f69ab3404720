import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { AdminPromoCodesRoute } from '@/app/routes/admin-promo-codes';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import type { StaffPromoCode } from '@/features/promo-codes/api/get-promo-codes';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function makeCode(overrides: Partial<StaffPromoCode> = {}): StaffPromoCode {
  return {
    id: 1,
    code: 'SPRING',
    discount_percent: 15,
    expires_at: null,
    max_uses: null,
    uses: 0,
    active: true,
    created_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

function renderPromoCodes(user: User | null) {
  return renderWithProviders(<AdminPromoCodesRoute />, {
    url: '/admin/promo-codes',
    path: '/admin/promo-codes',
    queryClient: queryClientWithSession(user),
  });
}

const boss = makeUser({ id: 1, name: 'Boss', account_type: 'super_admin' });

/** A fake server holding `codes`, answering the list, PATCH and DELETE like the API. */
function promoServer(initial: StaffPromoCode[]) {
  let codes = initial;
  const handlers: Parameters<typeof fakeApi>[0] = {
    'GET /admin/promo-codes': () => jsonResponse(codes),
  };
  const calls = fakeApi(handlers);
  const handle = (method: string, id: number, answer: (body: unknown) => Response) => {
    handlers[`${method} /admin/promo-codes/${id}`] = answer;
  };
  const patchSaves = (id: number) =>
    handle('PATCH', id, (body) => {
      codes = codes.map((code) =>
        code.id === id ? { ...code, ...(body as Partial<StaffPromoCode>) } : code,
      );
      return jsonResponse(codes.find((code) => code.id === id));
    });
  const deleteRemoves = (id: number) =>
    handle('DELETE', id, () => {
      codes = codes.filter((code) => code.id !== id);
      return new Response(null, { status: 204 });
    });
  return { calls, handle, patchSaves, deleteRemoves };
}

describe('/admin/promo-codes', () => {
  it('is for super admins only', () => {
    const calls = fakeApi({});
    renderPromoCodes(makeUser({ account_type: 'admin' }));
    expect(
      screen.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('lists each code with its discount, state, uses so far and limit, and expiry', async () => {
    promoServer([
      makeCode({ id: 3, code: 'AUTUMN', max_uses: 5, uses: 2, expires_at: '2099-12-31T23:59:00Z' }),
      makeCode({ id: 2, code: 'OLD', expires_at: '2001-01-01T00:00:00Z' }),
      makeCode({ id: 1, code: 'SPRING', active: false, uses: 4 }),
    ]);
    renderPromoCodes(boss);
    const autumn = await screen.findByRole('listitem', { name: 'AUTUMN' });
    expect(autumn).toHaveTextContent('15% off');
    expect(autumn).toHaveTextContent('Active');
    expect(autumn).toHaveTextContent('Used 2 of 5');
    expect(autumn).toHaveTextContent(/Expires .*2099/);
    // used: no Delete, only switching off
    expect(within(autumn).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(autumn).getByRole('button', { name: 'Deactivate AUTUMN' })).toBeEnabled();

    const old = screen.getByRole('listitem', { name: 'OLD' });
    expect(old).toHaveTextContent('Expired');
    expect(old).toHaveTextContent('Used 0 · no limit');
    expect(within(old).getByRole('button', { name: 'Delete OLD' })).toBeInTheDocument();

    const spring = screen.getByRole('listitem', { name: 'SPRING' });
    expect(spring).toHaveTextContent('Inactive');
    expect(spring).toHaveTextContent('Never expires');
    expect(within(spring).getByRole('button', { name: 'Activate SPRING' })).toBeInTheDocument();
  });

  it('switches a code off and on again', async () => {
    const server = promoServer([makeCode({ uses: 3 })]);
    server.patchSaves(1);
    const { user } = renderPromoCodes(boss);
    await user.click(await screen.findByRole('button', { name: 'Deactivate SPRING' }));
    expect(
      await screen.findByText('SPRING is switched off. Orders that used it keep it.'),
    ).toBeInTheDocument();
    const spring = screen.getByRole('listitem', { name: 'SPRING' });
    await waitFor(() => expect(spring).toHaveTextContent('Inactive'));
    await user.click(within(spring).getByRole('button', { name: 'Activate SPRING' }));
    await waitFor(() => expect(spring).toHaveTextContent('Active'));
    expect(server.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual(
      [{ active: false }, { active: true }],
    );
  });

  it('edits only the fields that changed, and keeps the limit at the uses so far', async () => {
    const server = promoServer([makeCode({ uses: 3, max_uses: 10 })]);
    server.patchSaves(1);
    const { user } = renderPromoCodes(boss);
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit SPRING' });
    expect(dialog).toHaveTextContent('Used 3 times so far. Empty: no limit.');

    const limit = within(dialog).getByRole('textbox', { name: /Maximum uses/ });
    await user.clear(limit);
    await user.type(limit, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText('It has been used 3 times already: enter 3 or more.'),
    ).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'PATCH')).toEqual([]);

    await user.clear(limit);
    const discount = within(dialog).getByRole('textbox', { name: 'Discount (%)' });
    await user.clear(discount);
    await user.type(discount, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Promo code SPRING saved.')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual(
      [{ discount_percent: 20, max_uses: null }],
    );
    const spring = screen.getByRole('listitem', { name: 'SPRING' });
    await waitFor(() => expect(spring).toHaveTextContent('20% off'));
    expect(spring).toHaveTextContent('Used 3 · no limit');
  });

  it('shows the server’s word on a refused change', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = promoServer([makeCode({ uses: 3, max_uses: 10 })]);
    const message = 'This code has been used 4 times already: the usage limit cannot be lower.';
    server.handle('PATCH', 1, () => validationError({ max_uses: [message] }, message));
    const { user } = renderPromoCodes(boss);
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit SPRING' });
    const limit = within(dialog).getByRole('textbox', { name: /Maximum uses/ });
    await user.clear(limit);
    await user.type(limit, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(limit).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes a never-used code after the confirmation', async () => {
    const server = promoServer([makeCode({ id: 2, code: 'SPARE' })]);
    server.deleteRemoves(2);
    const { user } = renderPromoCodes(boss);
    await user.click(await screen.findByRole('button', { name: 'Delete SPARE' }));
    const confirm = screen.getByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete SPARE' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('SPARE deleted.')).toBeInTheDocument();
    expect(await screen.findByText('No promo codes yet')).toBeInTheDocument();
  });

  it('says why a code an order used cannot be deleted', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = promoServer([makeCode({ id: 2, code: 'SPARE' })]);
    const message =
      'This code has been used on an order, so it stays for the order history. Deactivate it instead.';
    server.handle('DELETE', 2, () => jsonResponse({ message, errors: {} }, 409));
    const { user } = renderPromoCodes(boss);
    await user.click(await screen.findByRole('button', { name: 'Delete SPARE' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'SPARE' })).toBeInTheDocument();
  });
});
