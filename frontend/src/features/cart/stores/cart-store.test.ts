import { beforeEach, describe, expect, it, vi } from 'vitest';

import {
  CART_STORAGE_KEY,
  initCart,
  loadCartItems,
  overCaps,
  selectTotalQuantity,
  unitsInCart,
  useCartStore,
} from '@/features/cart/stores/cart-store';
import { makeProduct } from '@/testing/factories';
import { formatSubtotal } from '@/lib/currency';

const USD = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };

const cart = () => useCartStore.getState();
const saved = () => JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? 'null') as unknown;

describe('cart store', () => {
  beforeEach(() => {
    useCartStore.setState({
      items: [],
      hydrated: false,
      isOpen: false,
      caps: new Map(),
      held: new Map(),
    });
  });

  it('starts closed and empty', () => {
    cart().hydrate();
    expect(cart().items).toEqual([]);
    expect(cart().isOpen).toBe(false);
    expect(cart().hydrated).toBe(true);
  });

  it('adds a new product with quantity 1 and opens the drawer', () => {
    const bee = makeProduct({ name: 'Bee' });
    const result = cart().addItem(bee);
    expect(result).toEqual({ ok: true, qty: 1 });
    expect(cart().items).toEqual([{ ...bee, qty: 1 }]);
    expect(cart().isOpen).toBe(true);
  });

  it('adds one more of a product already in the cart', () => {
    const bee = makeProduct();
    cart().addItem(bee);
    cart().addItem(bee);
    expect(cart().items).toHaveLength(1);
    expect(cart().items[0]?.qty).toBe(2);
    expect(cart().increment(bee.id)).toEqual({ ok: true, qty: 3 });
    expect(selectTotalQuantity(cart())).toBe(3);
  });

  it('removes a line when its quantity is decreased below 1', () => {
    const bee = makeProduct();
    const fox = makeProduct();
    cart().addItem(bee);
    cart().addItem(bee);
    cart().addItem(fox);
    cart().decrement(bee.id);
    expect(cart().items.find((item) => item.id === bee.id)?.qty).toBe(1);
    cart().decrement(bee.id);
    expect(cart().items.map((item) => item.id)).toEqual([fox.id]);
  });

  it('clears every line', () => {
    cart().addItem(makeProduct());
    cart().addItem(makeProduct());
    cart().clear();
    expect(cart().items).toEqual([]);
    expect(saved()).toEqual([]);
  });

  it('refuses an out-of-stock product', () => {
    const soldOut = makeProduct({ stock: 0 });
    expect(cart().addItem(soldOut)).toEqual({ ok: false, reason: 'out-of-stock' });
    expect(cart().items).toEqual([]);
    expect(cart().isOpen).toBe(false);
  });

  it('never goes above a finite stock', () => {
    const rare = makeProduct({ stock: 2 });
    cart().addItem(rare);
    cart().addItem(rare);
    expect(cart().addItem(rare)).toEqual({ ok: false, reason: 'stock-limit' });
    expect(cart().increment(rare.id)).toEqual({ ok: false, reason: 'stock-limit' });
    expect(cart().items[0]?.qty).toBe(2);
  });

  it('refuses a drop that is not released yet', () => {
    const owl = makeProduct({ released: false, release_at: '2026-11-27T03:00:00Z' });
    expect(cart().addItem(owl)).toEqual({ ok: false, reason: 'not-released' });
    expect(cart().items).toEqual([]);
    expect(cart().isOpen).toBe(false);
  });

  it('keeps to the cap per account', () => {
    const owl = makeProduct({ name: 'Owl', stock: 10, max_per_account: 2 });
    const refusal = {
      ok: false,
      reason: 'account-limit',
      drop: { id: owl.id, name: 'Owl', max_per_account: 2 },
      held: 0,
    };
    cart().addItem(owl);
    cart().addItem(owl);
    expect(cart().addItem(owl)).toEqual(refusal);
    expect(cart().increment(owl.id)).toEqual(refusal);
    expect(cart().items[0]?.qty).toBe(2);
  });

  it('lets lines saved before drops and bundles existed (no drop fields) be added to', () => {
    const old = { id: 41, name: 'Bee', price: 4.5, image: null, stock: null, qty: 1 };
    window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([old]));
    cart().hydrate();
    expect(cart().increment(old.id)).toEqual({ ok: true, qty: 2 });
    expect(cart().addItem(makeProduct({ related_ids: [old.id] }))).toEqual({ ok: true, qty: 1 });
  });
  it('lets unlimited products (stock null) be added freely', () => {
    const sheckles = makeProduct({ stock: null });
    for (let i = 0; i < 50; i += 1) cart().addItem(sheckles);
    expect(cart().items[0]?.qty).toBe(50);
  });

  it('totals the price exactly', () => {
    cart().addItem(makeProduct({ price: 24.99 }));
    const cheap = makeProduct({ price: 0.1 });
    cart().addItem(cheap);
    cart().addItem(cheap);
    expect(formatSubtotal(cart().items, USD)).toBe('$25.19');
  });

  it('saves every change to localStorage under cartItems as a plain list', () => {
    const bee = makeProduct({ name: 'Bee', price: 4.5 });
    cart().addItem(bee);
    expect(saved()).toEqual([{ ...bee, qty: 1 }]);
    cart().increment(bee.id);
    expect(saved()).toEqual([{ ...bee, qty: 2 }]);
    cart().decrement(bee.id);
    cart().decrement(bee.id);
    expect(saved()).toEqual([]);
  });

  it('does not save whether the drawer is open', () => {
    cart().addItem(makeProduct());
    cart().close();
    cart().open();
    expect(window.localStorage.getItem(CART_STORAGE_KEY)).not.toContain('isOpen');
  });

  it('loads the saved cart', () => {
    const bee = makeProduct();
    window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([{ ...bee, qty: 3 }]));
    cart().hydrate();
    expect(cart().items).toEqual([{ ...bee, qty: 3 }]);
    expect(cart().isOpen).toBe(false);
  });

  it('logs an error and starts empty when the saved cart is not valid JSON', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.localStorage.setItem(CART_STORAGE_KEY, '{not json');
    cart().hydrate();
    expect(cart().items).toEqual([]);
    expect(cart().hydrated).toBe(true);
    expect(consoleError).toHaveBeenCalledWith(
      'Error parsing cartItems from localStorage:',
      expect.any(SyntaxError),
    );
  });

  it('treats saved JSON that is not a list as corrupt too', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.localStorage.setItem(CART_STORAGE_KEY, '{"id":1}');
    expect(loadCartItems()).toEqual([]);
    expect(consoleError).toHaveBeenCalledOnce();
  });

  it('drops saved lines that are not cart items', () => {
    const bee = makeProduct();
    window.localStorage.setItem(
      CART_STORAGE_KEY,
      JSON.stringify([{ ...bee, qty: 1 }, { id: 'x' }, null, { ...bee, id: 2, qty: 0 }]),
    );
    expect(loadCartItems()).toEqual([{ ...bee, qty: 1 }]);
  });

  it('refreshes saved product details from the catalogue, keeping quantities', () => {
    const bee = makeProduct({ price: 5, stock: 10 });
    cart().addItem(bee);
    cart().addItem(bee);
    cart().syncProducts([{ ...bee, price: 6, stock: 4 }]);
    expect(cart().items[0]).toMatchObject({ price: 6, stock: 4, qty: 2 });
    expect(saved()).toEqual([{ ...bee, price: 6, stock: 4, qty: 2 }]);
  });

  it('follows changes made in another tab', () => {
    const stop = initCart();
    const bee = makeProduct();
    window.localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([{ ...bee, qty: 2 }]));
    window.dispatchEvent(new StorageEvent('storage', { key: CART_STORAGE_KEY }));
    expect(cart().items).toEqual([{ ...bee, qty: 2 }]);
    stop();
  });
});

describe('a drop inside bundles', () => {
  const dragon = makeProduct({ id: 51, name: 'Dragon', stock: 30, max_per_account: 1 });
  const dragonBundle = makeProduct({ id: 52, name: 'Dragon Bundle', related_ids: [51, 53] });
  const egg = makeProduct({ id: 53, name: 'Egg' });
  const fireBundle = makeProduct({ id: 54, name: 'Fire Bundle', related_ids: [53, 51] });
  const refusal = {
    ok: false,
    reason: 'account-limit',
    drop: { id: 51, name: 'Dragon', max_per_account: 1 },
    held: 0,
  };

  beforeEach(() => {
    useCartStore.setState({
      items: [],
      hydrated: true,
      isOpen: false,
      caps: new Map(),
      held: new Map(),
    });
  });

  it('counts a bundle unit as one of the drop: refused when the drop is at its cap', () => {
    cart().addItem(dragon);
    expect(cart().addItem(dragonBundle)).toEqual(refusal);
    expect(cart().items.map((item) => item.id)).toEqual([dragon.id]);
  });

  it('refuses the drop itself once a bundle holds it up to the cap', () => {
    cart().syncProducts([dragon, dragonBundle, egg]);
    cart().addItem(dragonBundle);
    expect(cart().addItem(dragon)).toEqual(refusal);
  });

  it('refuses a second bundle holding a drop capped at 1, read from the catalogue', () => {
    // the drop is not in the cart: its cap comes from the latest product list
    cart().syncProducts([dragon, dragonBundle, egg, fireBundle]);
    expect(cart().addItem(dragonBundle)).toEqual({ ok: true, qty: 1 });
    expect(cart().addItem(fireBundle)).toEqual(refusal);
    expect(cart().increment(dragonBundle.id)).toEqual(refusal);
    expect(cart().items.map((item) => [item.id, item.qty])).toEqual([[dragonBundle.id, 1]]);
  });

  it('counts every unit of every bundle against a larger cap', () => {
    cart().syncProducts([{ ...dragon, max_per_account: 3 }, dragonBundle, egg, fireBundle]);
    cart().addItem(dragonBundle);
    cart().addItem(dragonBundle);
    cart().addItem(fireBundle);
    expect(unitsInCart(dragon.id, cart().items)).toBe(3);
    expect(cart().addItem(fireBundle)).toMatchObject({ ok: false, reason: 'account-limit' });
    expect(cart().addItem(egg)).toEqual({ ok: true, qty: 1 });
  });

  it('follows the catalogue when a cap changes, without saving the caps', () => {
    cart().syncProducts([dragon, dragonBundle, egg]);
    cart().addItem(dragonBundle);
    cart().syncProducts([{ ...dragon, max_per_account: 2 }, dragonBundle, egg]);
    expect(cart().increment(dragonBundle.id)).toEqual({ ok: true, qty: 2 });
    expect(saved()).toEqual(cart().items);
    cart().syncProducts([{ ...dragon, max_per_account: null }, dragonBundle, egg]);
    expect(cart().caps.size).toBe(0);
  });
});

describe('what the buyer already holds', () => {
  const dragon = makeProduct({ id: 61, name: 'Dragon', stock: 30, max_per_account: 2 });
  const dragonBundle = makeProduct({ id: 62, name: 'Dragon Bundle', related_ids: [61] });

  beforeEach(() => {
    useCartStore.setState({
      items: [],
      hydrated: true,
      isOpen: false,
      caps: new Map(),
      held: new Map(),
    });
    cart().syncProducts([dragon, dragonBundle]);
  });

  it('counts the units held in orders with those in the cart against the cap', () => {
    cart().syncHoldings([{ product_id: 61, held: 1 }]);
    expect(cart().addItem(dragon)).toEqual({ ok: true, qty: 1 });
    const refusal = {
      ok: false,
      reason: 'account-limit',
      drop: { id: 61, name: 'Dragon', max_per_account: 2 },
      held: 1,
    };
    expect(cart().increment(dragon.id)).toEqual(refusal);
    expect(cart().addItem(dragonBundle)).toEqual(refusal);
  });

  it('refuses a bundle of a drop the buyer holds all of, and lets go when the holding does', () => {
    cart().syncHoldings([{ product_id: 61, held: 2 }]);
    expect(cart().addItem(dragonBundle)).toMatchObject({ ok: false, held: 2 });
    cart().syncHoldings([]);
    expect(cart().addItem(dragonBundle)).toEqual({ ok: true, qty: 1 });
  });

  it('finds the lines over a cap once the holdings arrive', () => {
    cart().addItem(dragon);
    cart().addItem(dragonBundle);
    const overOf = () =>
      cart().items.map((line) => overCaps(line, cart().items, cart().caps, cart().held));
    expect(overOf()).toEqual([[], []]);
    cart().syncHoldings([{ product_id: 61, held: 1 }]);
    const over = [{ drop: { id: 61, name: 'Dragon', max_per_account: 2 }, held: 1, inCart: 2 }];
    expect(overOf()).toEqual([over, over]);
  });

  it('keeps the same holdings without a new state, and never saves them', () => {
    cart().syncHoldings([{ product_id: 61, held: 1 }]);
    const first = cart().held;
    cart().syncHoldings([{ product_id: 61, held: 1 }]);
    expect(cart().held).toBe(first);
    cart().addItem(dragon);
    expect(JSON.stringify(saved())).not.toContain('held');
  });
});
