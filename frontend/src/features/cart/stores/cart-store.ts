import { create } from 'zustand';
import { persist, type PersistStorage } from 'zustand/middleware';

import { isUpcomingDrop } from '@/lib/drop';
import { sumLines } from '@/lib/money';
import { canAddOneMore, isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';

/** A product as it was when added, plus how many the shopper wants. */
export type CartItem = Product & { qty: number };

/** The cart lives in localStorage under this key as a plain JSON array of CartItem. */
export const CART_STORAGE_KEY = 'cartItems';

export type AddRefusal = 'out-of-stock' | 'stock-limit' | 'not-released' | 'account-limit';
export type AddResult = { ok: true; qty: number } | { ok: false; reason: AddRefusal };

type CartState = {
  items: CartItem[];
  /** False until the saved cart has been read: nothing cart-related renders before that. */
  hydrated: boolean;
  /** Whether the drawer is open. Not persisted: a reload starts closed. */
  isOpen: boolean;

  /** Reads the saved cart (again): at start-up and when another tab changed it. */
  hydrate: () => void;
  /** Adds one of the product (and opens the drawer), unless it is out of stock or at its stock. */
  addItem: (product: Product) => AddResult;
  increment: (id: number) => AddResult;
  /** Takes one away; the line goes when it would drop below 1. */
  decrement: (id: number) => void;
  removeItem: (id: number) => void;
  clear: () => void;
  /** Refreshes saved product fields (price, stock, name, image…) from the latest catalogue. */
  syncProducts: (products: readonly Product[]) => void;
  open: () => void;
  close: () => void;
};

/**
 * What the cart checks before adding one: the stock, and for a drop its release and its cap per
 * Discord account. Lines saved before drops existed have no drop fields.
 */
type AddableProduct = Pick<Product, 'stock'> &
  Partial<Pick<Product, 'released' | 'max_per_account'>>;

/** Whether one more of this line may go into the cart (the plus button). */
export function canIncrease(item: AddableProduct & Pick<CartItem, 'qty'>): boolean {
  return checkAddable(item, item.qty).ok;
}

/** Whether one more of `product` may be added to a cart holding `qtyInCart` of it. */
export function checkAddable(product: AddableProduct, qtyInCart: number): AddResult {
  if (isUpcomingDrop(product)) return { ok: false, reason: 'not-released' };
  if (isOutOfStock(product)) return { ok: false, reason: 'out-of-stock' };
  if (!canAddOneMore(product, qtyInCart)) return { ok: false, reason: 'stock-limit' };
  if (product.max_per_account && qtyInCart >= product.max_per_account) {
    return { ok: false, reason: 'account-limit' };
  }
  return { ok: true, qty: qtyInCart + 1 };
}

function isCartItem(value: unknown): value is CartItem {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.id === 'number' &&
    typeof item.name === 'string' &&
    typeof item.price === 'number' &&
    typeof item.qty === 'number' &&
    item.qty >= 1
  );
}

/** Reads the saved cart. Unparseable JSON logs an error and gives an empty cart (docs/product.md, Behaviour). */
export function loadCartItems(storage: Storage = window.localStorage): CartItem[] {
  const saved = storage.getItem(CART_STORAGE_KEY);
  if (saved === null) return [];
  try {
    const parsed: unknown = JSON.parse(saved);
    if (!Array.isArray(parsed)) throw new TypeError('The saved cart is not a list.');
    return parsed.filter(isCartItem).map((item) => ({
      ...item,
      stock: item.stock ?? null,
      qty: Math.floor(item.qty),
    }));
  } catch (err) {
    console.error('Error parsing cartItems from localStorage:', err);
    return [];
  }
}

type SavedCart = { items: CartItem[] };

/**
 * How `persist` keeps the cart: the plain JSON list it always was (not zustand's
 * { state, version } wrapper), read through `loadCartItems`, and written only when the lines
 * differ from the saved copy (no saved copy counts as an empty cart), so opening the drawer or
 * resetting an empty cart writes nothing.
 */
const cartStorage: PersistStorage<SavedCart> = {
  getItem: () => ({ state: { items: loadCartItems() } }),
  setItem: (name, { state }) => {
    try {
      const json = JSON.stringify(state.items);
      const saved = window.localStorage.getItem(name);
      if (json === (saved ?? '[]')) return;
      window.localStorage.setItem(name, json);
    } catch (err) {
      // Private mode or a full quota: the cart still works for this visit.
      console.warn('Could not save the cart to localStorage:', err);
    }
  },
  removeItem: (name) => window.localStorage.removeItem(name),
};

const SYNCED_FIELDS = [
  'name',
  'description',
  'price',
  'category',
  'image',
  'stock',
  'weight',
  'mutation',
  'savings',
  'dupe_warning',
  'related_ids',
  'released',
  'release_at',
  'max_per_account',
] as const satisfies ReadonlyArray<keyof Product>;

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const useCartStore = create<CartState>()(
  persist(
    (set, get, store) => ({
      items: [],
      hydrated: false,
      isOpen: false,

      hydrate: () => void store.persist.rehydrate(),

      addItem: (product) => {
        const { items } = get();
        const existing = items.find((item) => item.id === product.id);
        const result = checkAddable(product, existing?.qty ?? 0);
        if (!result.ok) return result;
        const next = existing
          ? items.map((item) =>
              item.id === product.id ? { ...item, ...product, qty: result.qty } : item,
            )
          : [...items, { ...product, qty: 1 }];
        set({ items: next, isOpen: true });
        return result;
      },

      increment: (id) => {
        const { items } = get();
        const existing = items.find((item) => item.id === id);
        if (!existing) return { ok: false, reason: 'out-of-stock' };
        const result = checkAddable(existing, existing.qty);
        if (!result.ok) return result;
        set({ items: items.map((item) => (item.id === id ? { ...item, qty: result.qty } : item)) });
        return result;
      },

      decrement: (id) =>
        set({
          items: get()
            .items.map((item) => (item.id === id ? { ...item, qty: item.qty - 1 } : item))
            .filter((item) => item.qty >= 1),
        }),

      removeItem: (id) => set({ items: get().items.filter((item) => item.id !== id) }),

      clear: () => set({ items: [] }),

      syncProducts: (products) => {
        const byId = new Map(products.map((product) => [product.id, product]));
        let changed = false;
        const next = get().items.map((item) => {
          const fresh = byId.get(item.id);
          if (!fresh || SYNCED_FIELDS.every((field) => sameValue(item[field], fresh[field]))) {
            return item;
          }
          changed = true;
          return { ...item, ...fresh, qty: item.qty };
        });
        if (changed) set({ items: next });
      },

      open: () => set({ isOpen: true }),
      close: () => set({ isOpen: false }),
    }),
    {
      name: CART_STORAGE_KEY,
      storage: cartStorage,
      partialize: ({ items }) => ({ items }),
      // Read when `hydrate` (initCart) asks, before the first render; the drawer stays as it is.
      skipHydration: true,
      merge: (saved, current) => ({ ...current, ...(saved as SavedCart), hydrated: true }),
    },
  ),
);

export const selectTotalQuantity = (state: Pick<CartState, 'items'>) =>
  state.items.reduce((total, item) => total + item.qty, 0);

export const selectTotalPrice = (state: Pick<CartState, 'items'>) => sumLines(state.items);

export const selectQuantityOf = (id: number) => (state: Pick<CartState, 'items'>) =>
  state.items.find((item) => item.id === id)?.qty ?? 0;

/**
 * Reads the saved cart once, then follows changes made in other tabs.
 * Call before the first render so the cart never flashes empty.
 */
export function initCart(): () => void {
  const { hydrate } = useCartStore.getState();
  hydrate();
  const onStorage = (event: StorageEvent) => {
    if (event.key === CART_STORAGE_KEY || event.key === null) hydrate();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
