import { act, screen, within } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';

import { CartButton } from '@/features/cart/components/cart-button';
import { CartDrawer } from '@/features/cart/components/cart-drawer';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { makeProduct } from '@/testing/factories';
import { renderWithProviders } from '@/testing/test-utils';

function CartHarness() {
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <CartButton ref={buttonRef} />
      <CartDrawer returnFocusRef={buttonRef} />
    </>
  );
}

const bee = makeProduct({ id: 1, name: 'Bee', price: 4.5, stock: null });
const unicorn = makeProduct({ id: 2, name: 'Unicorn', price: 24.99, stock: 2 });

function fillCart() {
  const { addItem, close } = useCartStore.getState();
  addItem(bee);
  addItem(bee);
  addItem(unicorn);
  close();
}

describe('cart button and drawer', () => {
  it('shows the total quantity on the button', () => {
    fillCart();
    renderWithProviders(<CartHarness />);
    const button = screen.getByRole('button', { name: 'Your Cart, 3 items' });
    expect(within(button).getByText('3')).toBeInTheDocument();
  });

  it('opens on the button and lists each line with its total', async () => {
    fillCart();
    const { user } = renderWithProviders(<CartHarness />);
    await user.click(screen.getByRole('button', { name: /your cart/i }));
    const drawer = screen.getByRole('dialog', { name: 'Your Cart' });
    expect(drawer).toHaveAttribute('aria-modal', 'true');
    expect(within(drawer).getByText('Bee')).toBeInTheDocument();
    expect(within(drawer).getByText('$4.50 each')).toBeInTheDocument();
    expect(within(drawer).getByText('$9.00')).toBeInTheDocument();
    expect(within(drawer).getByText('Total Price')).toBeInTheDocument();
    expect(within(drawer).getByTestId('cart-total')).toHaveTextContent('$33.99');
  });

  it('changes quantities; below 1 removes the line', async () => {
    fillCart();
    useCartStore.getState().open();
    const { user } = renderWithProviders(<CartHarness />);
    await user.click(screen.getByRole('button', { name: 'Decrease quantity of Bee' }));
    await user.click(screen.getByRole('button', { name: 'Decrease quantity of Bee' }));
    expect(screen.queryByText('Bee')).not.toBeInTheDocument();
    expect(screen.getByTestId('cart-total')).toHaveTextContent('$24.99');
  });

  it('disables the plus button at the stock', async () => {
    fillCart();
    useCartStore.getState().open();
    const { user } = renderWithProviders(<CartHarness />);
    const plus = screen.getByRole('button', { name: 'Increase quantity of Unicorn' });
    await user.click(plus);
    expect(plus).toBeDisabled();
    expect(screen.getByText('Only 2 in stock')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Increase quantity of Bee' })).toBeEnabled();
  });

  it('clears the cart and shows the empty state', async () => {
    fillCart();
    useCartStore.getState().open();
    const { user } = renderWithProviders(<CartHarness />);
    await user.click(screen.getByRole('button', { name: 'Clear Cart' }));
    expect(screen.getByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Browse products' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Your Cart, 0 items' })).toBeInTheDocument();
  });

  it('goes to /checkout and closes', async () => {
    fillCart();
    useCartStore.getState().open();
    const { user, router } = renderWithProviders(<CartHarness />);
    await user.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(router.state.location.pathname).toBe('/checkout');
    expect(useCartStore.getState().isOpen).toBe(false);
  });

  it('closes on Escape and gives focus back to the cart button', async () => {
    const { user } = renderWithProviders(<CartHarness />);
    const button = screen.getByRole('button', { name: /your cart/i });
    await user.click(button);
    expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('closes on a click outside and with the close button', async () => {
    const { user } = renderWithProviders(<CartHarness />);
    await user.click(screen.getByRole('button', { name: /your cart/i }));
    await user.click(screen.getByTestId('drawer-backdrop'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /your cart/i }));
    await user.click(screen.getByRole('button', { name: 'Close cart' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Tab inside the drawer', async () => {
    fillCart();
    const { user } = renderWithProviders(<CartHarness />);
    await user.click(screen.getByRole('button', { name: /your cart/i }));
    const drawer = screen.getByRole('dialog');
    for (let i = 0; i < 12; i += 1) {
      await user.tab();
      expect(drawer).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
  });

  it('renders nothing until the saved cart has been read', () => {
    act(() => useCartStore.setState({ hydrated: false, isOpen: true }));
    renderWithProviders(<CartDrawer />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('cart line stock notes', () => {
  it('tells the shopper when the stock dropped below the quantity', () => {
    fillCart();
    useCartStore.getState().syncProducts([{ ...unicorn, stock: 0 }]);
    useCartStore.getState().open();
    renderWithProviders(<CartHarness />);
    expect(screen.getByText('Sold out: remove it before checkout')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Increase quantity of Unicorn' })).toBeDisabled();
  });
});

describe('cart line caps per account', () => {
  it('counts a drop inside a bundle: both lines at the cap, each saying why', () => {
    const dragon = makeProduct({ id: 31, name: 'Dragon', stock: 30, max_per_account: 2 });
    const dragonBundle = makeProduct({ id: 33, name: 'Dragon Bundle', related_ids: [31] });
    const { addItem, open } = useCartStore.getState();
    addItem(dragon);
    addItem(dragonBundle);
    open();
    renderWithProviders(<CartHarness />);
    expect(screen.getByText('Limit 2 per account')).toBeInTheDocument();
    expect(screen.getByText('Holds Dragon: limit 2 per account')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Increase quantity of Dragon' })).toBeDisabled();
    expect(
      screen.getByRole('button', { name: 'Increase quantity of Dragon Bundle' }),
    ).toBeDisabled();
  });
});

describe('the cart and what the buyer already holds', () => {
  const dragon = makeProduct({ id: 31, name: 'Dragon', stock: 30, max_per_account: 3 });
  const dragonBundle = makeProduct({ id: 33, name: 'Dragon Bundle', related_ids: [31] });

  it('stops the stepper at the cap less what the buyer holds, and says so', async () => {
    const { addItem, syncProducts, syncHoldings, open } = useCartStore.getState();
    syncProducts([dragon, dragonBundle]);
    syncHoldings([{ product_id: 31, held: 2 }]);
    addItem(dragon);
    open();
    const { user } = renderWithProviders(<CartHarness />);
    const plus = screen.getByRole('button', { name: 'Increase quantity of Dragon' });
    expect(plus).toBeDisabled();
    expect(screen.getByText('You already have 2 of 3')).toBeInTheDocument();
    // within the cap: checkout open, no problem said
    const checkout = screen.getByRole('button', { name: 'Checkout' });
    expect(checkout).toBeEnabled();
    expect(screen.queryByText(/over the limit per account/i)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Decrease quantity of Dragon' }));
    expect(useCartStore.getState().items).toEqual([]);
  });

  it('marks a cart saved before the purchase and keeps Checkout shut until it is fixed', async () => {
    // the cart from before: two Dragons and a bundle of one, then the buyer's orders hold two
    const { addItem, syncProducts, syncHoldings, open } = useCartStore.getState();
    syncProducts([dragon, dragonBundle]);
    addItem(dragon);
    addItem(dragon);
    addItem(dragonBundle);
    open();
    const { user } = renderWithProviders(<CartHarness />);
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeEnabled();

    act(() => syncHoldings([{ product_id: 31, held: 2 }]));
    expect(
      screen.getByText('You already have 2 of 3: lower the quantity to 1'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('You already have 2 of 3 Dragon: lower the quantity'),
    ).toBeInTheDocument();
    const checkout = screen.getByRole('button', { name: 'Checkout' });
    expect(checkout).toBeDisabled();
    expect(checkout).toHaveAccessibleDescription(
      'Over the limit per account: change the marked items to check out.',
    );

    // the bundle goes, one Dragon goes: 2 held + 1 in the cart is the cap
    await user.click(screen.getByRole('button', { name: 'Decrease quantity of Dragon Bundle' }));
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Decrease quantity of Dragon' }));
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeEnabled();
    expect(screen.queryByText(/lower the quantity/)).not.toBeInTheDocument();
  });

  it('asks to remove a drop the buyer holds all of', () => {
    const { addItem, syncProducts, syncHoldings, open } = useCartStore.getState();
    syncProducts([dragon]);
    addItem(dragon);
    syncHoldings([{ product_id: 31, held: 3 }]);
    open();
    renderWithProviders(<CartHarness />);
    expect(
      screen.getByText('You already have 3 of 3: remove it before checkout'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeDisabled();
  });
});
