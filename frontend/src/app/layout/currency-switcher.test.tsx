import { act, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { Navbar } from '@/app/layout/navbar';
import { fakeApi, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { ProductPrice } from '@/features/catalog/components/product-price';
import type { Currency } from '@/lib/currency';
import { offerCurrencies } from '@/lib/currency-choice';
import { renderWithProviders } from '@/testing/test-utils';

const USD: Currency = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };
const BRL: Currency = { code: 'BRL', rate: '5.34144', minor_units: 2, rounding: 'minor' };
const EUR: Currency = { code: 'EUR', rate: '0.935', minor_units: 2, rounding: '0.99' };

function renderShop() {
  fakeApi({});
  return renderWithProviders(
    <>
      <Navbar cartButtonRef={createRef()} />
      <ProductPrice product={{ price: 4.99, savings: 9.99 }} />
    </>,
    { queryClient: queryClientWithSession(null) },
  );
}

describe('the currency switcher', () => {
  it('shows every price in the chosen currency at once and keeps the choice in the cookie', async () => {
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const { user } = renderShop();
    act(() => offerCurrencies([USD, EUR, BRL]));
    const switcher = screen.getByRole('combobox', { name: 'Currency' });
    expect(switcher).toHaveValue('USD');
    expect(screen.getByText('$4.99')).toBeInTheDocument();

    await user.selectOptions(switcher, 'BRL');

    // 4.99 × 5.34144 = 26.6538 → R$ 26,65; the original price 9.99 → R$ 53,36
    expect(screen.getByText('R$26.65')).toBeInTheDocument();
    expect(screen.getByText('R$53.36')).toBeInTheDocument();
    expect(cookie).toHaveBeenCalledWith(
      expect.stringMatching(/^currency=BRL; path=\/; max-age=31536000; SameSite=Lax$/),
    );

    // a price ending: 4.99 × 0.935 = 4.67 → €4.99, the nearest price ending in .99
    await user.selectOptions(switcher, 'EUR');
    expect(screen.getByText('€4.99')).toBeInTheDocument();
  });

  it('names each currency with its code and sign', () => {
    renderShop();
    act(() => offerCurrencies([USD, EUR, BRL]));
    const options = screen
      .getAllByRole('option')
      .filter((option) => ['USD', 'EUR', 'BRL'].includes((option as HTMLOptionElement).value));
    expect(options.map((option) => option.textContent)).toEqual(['USD ($)', 'EUR (€)', 'BRL (R$)']);
  });

  it('is not there while the shop offers its base currency only', () => {
    renderShop();
    act(() => offerCurrencies([USD]));
    expect(screen.queryByRole('combobox', { name: 'Currency' })).not.toBeInTheDocument();
    expect(screen.getByText('$4.99')).toBeInTheDocument();
  });
});
