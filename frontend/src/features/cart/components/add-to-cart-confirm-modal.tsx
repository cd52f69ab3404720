import { useRef } from 'react';

import { Button } from '@/components/ui/button';
import { AlertIcon, CartIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import type { Product } from '@/types/api';

type AddToCartConfirmModalProps = {
  /** The product waiting for confirmation; null when closed. */
  product: Pick<Product, 'name' | 'dupe_warning'> | null;
  quantityInCart: number;
  onCancel: () => void;
  onProceed: () => void;
};

/**
 * Asked before adding a product that may be flagged as a dupe in game, or one already in the
 * cart. Proceed adds it; Cancel (or closing) adds nothing.
 */
export function AddToCartConfirmModal({
  product,
  quantityInCart,
  onCancel,
  onProceed,
}: AddToCartConfirmModalProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const dupe = product?.dupe_warning ?? false;

  return (
    <Modal
      open={product !== null}
      onClose={onCancel}
      role="alertdialog"
      initialFocusRef={cancelRef}
      icon={dupe ? <AlertIcon size={22} /> : <CartIcon size={22} />}
      title={dupe ? 'Before you buy' : 'Add another one?'}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onProceed}>Proceed</Button>
        </>
      }
    >
      {product && dupe ? (
        <p>
          By purchasing you acknowledge that the {product.name} may be falsely flagged as dupe after
          it&apos;s delivered.
        </p>
      ) : null}
      {product && quantityInCart > 0 ? (
        <p>
          You already have {quantityInCart} in your cart.
          {dupe ? null : ` Proceed to add one more ${product.name}.`}
        </p>
      ) : null}
    </Modal>
  );
}
