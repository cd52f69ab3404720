import { useState } from 'react';

import { toast } from '@/components/ui/toast';
import { AddToCartConfirmModal } from '@/features/cart/components/add-to-cart-confirm-modal';
import {
  checkAddable,
  selectQuantityOf,
  useCartStore,
  type AddRefusal,
} from '@/features/cart/stores/cart-store';
import type { Product } from '@/types/api';

type UseAddToCartOptions = {
  /** Also ask before adding a product that is already in the cart (the product page does). */
  confirmWhenInCart?: boolean;
};

function refusalMessage(product: Product, reason: AddRefusal): string {
  switch (reason) {
    case 'out-of-stock':
      return `${product.name} is out of stock`;
    case 'stock-limit':
      return `You already have all ${product.stock ?? 0} ${product.name} we have in stock`;
    case 'not-released':
      return `${product.name} is not on sale yet`;
    case 'account-limit':
      return `Limit ${product.max_per_account ?? 0} ${product.name} per Discord account`;
  }
}

/**
 * Adds a product to the cart with feedback (a toast, the drawer opens), first asking for
 * confirmation when the product carries the dupe warning or, if asked, is already in the cart.
 * Render `confirmation` once next to the buttons that call `addToCart`.
 */
type AddToCartCallOptions = {
  /** Runs once the product is in the cart, e.g. Buy Now going on to /checkout. */
  onAdded?: () => void;
};

export function useAddToCart({ confirmWhenInCart = false }: UseAddToCartOptions = {}) {
  const [pending, setPending] = useState<{ product: Product; onAdded?: () => void } | null>(null);
  const pendingQuantity = useCartStore(selectQuantityOf(pending?.product.id ?? -1));

  const add = (product: Product, onAdded?: () => void) => {
    const result = useCartStore.getState().addItem(product);
    if (result.ok) {
      toast.success(`Added ${product.name} to cart`);
      onAdded?.();
    } else {
      toast.error(refusalMessage(product, result.reason));
    }
  };

  const addToCart = (product: Product, { onAdded }: AddToCartCallOptions = {}) => {
    const quantity = selectQuantityOf(product.id)(useCartStore.getState());
    const check = checkAddable(product, quantity);
    if (!check.ok) {
      toast.error(refusalMessage(product, check.reason));
      return;
    }
    if (product.dupe_warning || (confirmWhenInCart && quantity > 0)) {
      setPending({ product, onAdded });
      return;
    }
    add(product, onAdded);
  };

  const confirmation = (
    <AddToCartConfirmModal
      product={pending?.product ?? null}
      quantityInCart={pendingQuantity}
      onCancel={() => setPending(null)}
      onProceed={() => {
        if (pending) add(pending.product, pending.onAdded);
        setPending(null);
      }}
    />
  );

  return { addToCart, confirmation };
}
