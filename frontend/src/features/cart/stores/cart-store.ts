import { create } from 'zustand';
import { persist, type PersistStorage } from 'zustand/middleware';

import { isUpcomingDrop } from '@/lib/drop';
import { canAddOneMore, isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';

/** A product as it was when added, plus how many the shopper wants. */
export type CartItem = Product & { qty: number };

/** The cart lives in localStorage under this key as a plain JSON array of CartItem. */
export const CART_STORAGE_KEY = 'cartItems';

export type AddRefusal = 'out-of-stock' | 'stock-limit' | 'not-released' | 'account-limit';

/** A product sold with a cap of units per account (a drop): what the cart needs to count it. */
export type DropCap = { id: number; name: string; max_per_account: number };

/** The catalogue's capped products by id, so a bundle's drop is counted even when not in the cart. */
export type DropCaps = ReadonlyMap<number, DropCap>;

/**
 * The units of each capped product this buyer already holds in its orders, by product id, as the
 * server counts them (`GET /api/checkout/holdings`); a product missing holds none.
 */
export type Holdings = ReadonlyMap<number, number>;

/**
 * Why one more cannot go in; 'account-limit' names the drop whose cap it would pass and how many
 * of it the buyer's orders already hold (`held`).
 */
export type AddRefused =
  | { ok: false; reason: Exclude<AddRefusal, 'account-limit'> }
  | { ok: false; reason: 'account-limit'; drop: DropCap; held: number };
export type AddResult = { ok: true; qty: number } | AddRefused;

type CartState = {
  items: CartItem[];
  /** False until the saved cart has been read: nothing cart-related renders before that. */
  hydrated: boolean;
  /** Whether the drawer is open. Not persisted: a reload starts closed. */
  isOpen: boolean;
  /** The caps of the latest catalogue (`syncProducts`). Not persisted. */
  caps: DropCaps;
  /** What the buyer's orders already hold of the capped products (`syncHoldings`). Not persisted. */
  held: Holdings;

  /** Reads the saved cart (again): at start-up and when another tab changed it. */
  hydrate: () => void;
  /**
   * Adds one of the product (and opens the drawer), unless it is out of stock, at its stock, or
   * would take a drop (itself or one it holds) over its cap per account.
   */
  addItem: (product: Product) => AddResult;
  increment: (id: number) => AddResult;
  /** Takes one away; the line goes when it would drop below 1. */
  decrement: (id: number) => void;
  removeItem: (id: number) => void;
  clear: () => void;
  /** Refreshes saved product fields (price, stock, name, image…) and the caps from the latest catalogue. */
  syncProducts: (products: readonly Product[]) => void;
  /** Takes the server's count of what the buyer's orders hold of the capped products. */
  syncHoldings: (holdings: ReadonlyArray<{ product_id: number; held: number }>) => void;
  open: () => void;
  close: () => void;
};

/**
 * What the cart checks before adding one: the stock, and for a drop its release and its cap per
 * account, for a bundle the caps of the drops it holds. Lines saved before drops or bundles
 * existed have no drop fields and no `related_ids`.
 */
type AddableProduct = Pick<Product, 'id' | 'name' | 'stock'> &
  Partial<Pick<Product, 'released' | 'max_per_account' | 'related_ids'>>;

/** A cart line as the caps count it. */
type CountedLine = Pick<CartItem, 'id' | 'name' | 'qty'> &
  Partial<Pick<CartItem, 'max_per_account' | 'related_ids'>>;

/** The units of `dropId` one of `product` takes: itself, and one per place in a bundle's parts. */
function unitsOfEach(product: Pick<CountedLine, 'id' | 'related_ids'>, dropId: number): number {
  const own = product.id === dropId ? 1 : 0;
  return own + (product.related_ids ?? []).filter((id) => id === dropId).length;
}

/**
 * The units of `dropId` the cart holds, as the server counts them: its own line plus one per unit
 * of every bundle that contains it.
 */
export function unitsInCart(dropId: number, lines: readonly CountedLine[]): number {
  return lines.reduce((total, line) => total + line.qty * unitsOfEach(line, dropId), 0);
}

function capOf(product: CountedLine | AddableProduct): DropCap | null {
  return product.max_per_account
    ? { id: product.id, name: product.name, max_per_account: product.max_per_account }
    : null;
}

/**
 * The caps one more of `product` counts against: its own, and those of the drops it holds. The
 * product's own fields first (the freshest), then the catalogue's, then the cart lines'.
 */
function capsTouched(
  product: AddableProduct,
  lines: readonly CountedLine[],
  caps: DropCaps,
): DropCap[] {
  const ids = new Set([product.id, ...(product.related_ids ?? [])]);
  return [...ids].flatMap((id) => {
    if (id === product.id && product.max_per_account !== undefined) return capOf(product) ?? [];
    const line = lines.find((item) => item.id === id);
    return caps.get(id) ?? (line && capOf(line)) ?? [];
  });
}

/**
 * Whether one more of `product` may be added to a cart holding `lines`, for a buyer whose orders
 * already hold `held`: a drop's units in the cart and in those orders stay within its cap.
 */
export function checkAddable(
  product: AddableProduct,
  lines: readonly CountedLine[],
  caps: DropCaps = new Map(),
  held: Holdings = new Map(),
): AddResult {
  const qtyInCart = lines.find((item) => item.id === product.id)?.qty ?? 0;
  if (isUpcomingDrop(product)) return { ok: false, reason: 'not-released' };
  if (isOutOfStock(product)) return { ok: false, reason: 'out-of-stock' };
  if (!canAddOneMore(product, qtyInCart)) return { ok: false, reason: 'stock-limit' };
  const heldOf = (drop: DropCap) => held.get(drop.id) ?? 0;
  const over = capsTouched(product, lines, caps).find(
    (drop) =>
      heldOf(drop) + unitsInCart(drop.id, lines) + unitsOfEach(product, drop.id) >
      drop.max_per_account,
  );
  if (over) return { ok: false, reason: 'account-limit', drop: over, held: heldOf(over) };
  return { ok: true, qty: qtyInCart + 1 };
}

/** A drop the cart holds more of than its cap allows, with what the buyer's orders hold already. */
export type OverCap = { drop: DropCap; held: number; inCart: number };

/**
 * The caps a cart line takes past their limit (its own and its bundle's drops), counting the
 * whole cart and what the buyer's orders hold: e.g. a cart saved before the purchase. Checkout
 * would refuse it, so the cart says so first.
 */
export function overCaps(
  line: CountedLine,
  lines: readonly CountedLine[],
  caps: DropCaps,
  held: Holdings,
): OverCap[] {
  const touched = new Set([line.id, ...(line.related_ids ?? [])]);
  return [...touched].flatMap((id) => {
    const own = lines.find((item) => item.id === id);
    const drop = caps.get(id) ?? (own && capOf(own));
    if (!drop) return [];
    const inCart = unitsInCart(id, lines);
    const had = held.get(id) ?? 0;
    return had + inCart > drop.max_per_account ? [{ drop, held: had, inCart }] : [];
  });
}

/** The capped products of a catalogue. */
export function dropCaps(products: readonly Product[]): DropCaps {
  return new Map(products.flatMap((product) => capOf(product) ?? []).map((cap) => [cap.id, cap]));
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
      caps: new Map(),
      held: new Map(),

      hydrate: () => void store.persist.rehydrate(),

      addItem: (product) => {
        const { items, caps, held } = get();
        const existing = items.find((item) => item.id === product.id);
        const result = checkAddable(product, items, caps, held);
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
        const { items, caps, held } = get();
        const existing = items.find((item) => item.id === id);
        if (!existing) return { ok: false, reason: 'out-of-stock' };
        const result = checkAddable(existing, items, caps, held);
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
        const caps = dropCaps(products);
        if (!sameValue([...caps], [...get().caps])) set({ caps });
      },

      syncHoldings: (holdings) => {
        const held: Holdings = new Map(
          holdings.map((holding) => [holding.product_id, holding.held]),
        );
        if (!sameValue([...held], [...get().held])) set({ held });
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

/** Whether a cart line is a capped product or a bundle holding one: the holdings then matter. */
export const selectTakesADrop = (state: Pick<CartState, 'items' | 'caps'>) =>
  state.items.some(
    (item) =>
      Boolean(item.max_per_account) || (item.related_ids ?? []).some((id) => state.caps.has(id)),
  );

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
