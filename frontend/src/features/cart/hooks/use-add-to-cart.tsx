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
  return reason === 'out-of-stock'
    ? `${product.name} is out of stock`
    : `You already have all ${product.stock ?? 0} ${product.name} we have in stock`;
}

/**
 * Adds a product to the cart with feedback (a toast, the drawer opens), first asking for
 * confirmation when the product carries the dupe warning or, if asked, is already in the cart.
 * Render `confirmation` once next to the buttons that call `addToCart`.
 */
export function useAddToCart({ confirmWhenInCart = false }: UseAddToCartOptions = {}) {
  const [pending, setPending] = useState<Product | null>(null);
  const pendingQuantity = useCartStore(selectQuantityOf(pending?.id ?? -1));

  const add = (product: Product) => {
    const result = useCartStore.getState().addItem(product);
    if (result.ok) toast.success(`Added ${product.name} to cart`);
    else toast.error(refusalMessage(product, result.reason));
  };

  const addToCart = (product: Product) => {
    const quantity = selectQuantityOf(product.id)(useCartStore.getState());
    const check = checkAddable(product, quantity);
    if (!check.ok) {
      toast.error(refusalMessage(product, check.reason));
      return;
    }
    if (product.dupe_warning || (confirmWhenInCart && quantity > 0)) {
      setPending(product);
      return;
    }
    add(product);
  };

  const confirmation = (
    <AddToCartConfirmModal
      product={pending}
      quantityInCart={pendingQuantity}
      onCancel={() => setPending(null)}
      onProceed={() => {
        if (pending) add(pending);
        setPending(null);
      }}
    />
  );

  return { addToCart, confirmation };
}
