import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { Navbar } from '@/app/layout/navbar';
import { HomeRoute } from '@/app/routes/home';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { makeProduct } from '@/testing/factories';
import { jsonResponse, queryClientWithProducts, renderWithProviders } from '@/testing/test-utils';

describe('the language switcher', () => {
  it('shows the page in the chosen language at once, keeps it in the lang cookie and <html lang>', async () => {
    fakeApi({});
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const { user } = renderWithProviders(<Navbar cartButtonRef={createRef()} />, {
      queryClient: queryClientWithSession(null),
    });
    const nav = () => screen.getByRole('navigation', { name: /^(Main|Principal)$/ });
    expect(within(nav()).getByRole('link', { name: 'Login' })).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'pt-BR');

    await waitFor(() =>
      expect(within(nav()).getByRole('link', { name: 'Entrar' })).toBeInTheDocument(),
    );
    expect(within(nav()).getByRole('link', { name: 'Criar conta' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('pt-BR');
    expect(document.documentElement.lang).toBe('pt-BR');
    expect(cookie).toHaveBeenCalledWith(
      expect.stringMatching(/^lang=pt-BR; path=\/; max-age=31536000; SameSite=Lax$/),
    );
    expect(document.cookie).toContain('lang=pt-BR');
  });

  it('keeps a logged-in shopper’s choice on the account too, and a guest’s in the cookie only', async () => {
    const calls = fakeApi({ 'PATCH /profile': () => jsonResponse({ language: 'de' }) });
    const ann = renderWithProviders(<Navbar cartButtonRef={createRef()} />, {
      queryClient: queryClientWithSession(makeUser()),
    });
    await ann.user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    await waitFor(() =>
      expect(calls.filter(({ method }) => method === 'PATCH')).toEqual([
        { method: 'PATCH', path: '/profile', body: { language: 'de' } },
      ]),
    );
    ann.unmount();

    await i18next.changeLanguage('en');
    calls.length = 0;
    const guest = renderWithProviders(<Navbar cartButtonRef={createRef()} />, {
      queryClient: queryClientWithSession(null),
    });
    await guest.user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    await waitFor(() => expect(document.cookie).toContain('lang=fr'));
    expect(calls.filter(({ method }) => method === 'PATCH')).toEqual([]);
  });

  it('names every language in itself', () => {
    fakeApi({});
    renderWithProviders(<Navbar cartButtonRef={createRef()} />, {
      queryClient: queryClientWithSession(null),
    });
    const options = within(screen.getByRole('combobox', { name: 'Language' })).getAllByRole(
      'option',
    );
    expect(options.map((option) => option.textContent)).toEqual([
      'English',
      'Español',
      'Português (Brasil)',
      'Français',
      'Deutsch',
    ]);
  });
});

describe('a page in Brazilian Portuguese', () => {
  it('shows the home page in Portuguese, plurals and categories included', async () => {
    await i18next.changeLanguage('pt-BR');
    fakeApi({});
    renderWithProviders(<HomeRoute />, {
      queryClient: queryClientWithProducts([
        makeProduct({ id: 1, name: 'Raccoon', category: 'Pets', stock: 1 }),
        makeProduct({ id: 2, name: 'Dragon', category: 'Pets', stock: 3 }),
      ]),
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Turbine sua experiência no Grow a Garden com produtos baratinhos!',
    );
    expect(screen.getByText('2 produtos')).toBeInTheDocument();
    expect(screen.getByText('Resta 1')).toBeInTheDocument();
    expect(screen.getByText('Restam 3')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Adicionar ao carrinho: / })).toHaveLength(2);
    expect(screen.queryByText(/Add to Cart/)).not.toBeInTheDocument();
  });
});
