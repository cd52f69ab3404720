import i18next from 'i18next';
import { useState } from 'react';

import { toast } from '@/components/ui/toast';
import { AddToCartConfirmModal } from '@/features/cart/components/add-to-cart-confirm-modal';
import { checkAddable, selectQuantityOf, useCartStore } from '@/features/cart/stores/cart-store';
import { refusalMessage } from '@/features/cart/utils/refusal-message';
import type { Product } from '@/types/api';

type UseAddToCartOptions = {
  /** Also ask before adding a product that is already in the cart (the product page does). */
  confirmWhenInCart?: boolean;
};

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
      toast.success(i18next.t('cart.added', { name: product.name }));
      onAdded?.();
    } else {
      toast.error(refusalMessage(product, result));
    }
  };

  const addToCart = (product: Product, { onAdded }: AddToCartCallOptions = {}) => {
    const { items, caps, held } = useCartStore.getState();
    const quantity = selectQuantityOf(product.id)({ items });
    const check = checkAddable(product, items, caps, held);
    if (!check.ok) {
      toast.error(refusalMessage(product, check));
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
