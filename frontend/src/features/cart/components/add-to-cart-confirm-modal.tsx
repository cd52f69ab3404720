import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const dupe = product?.dupe_warning ?? false;

  return (
    <Modal
      open={product !== null}
      onClose={onCancel}
      role="alertdialog"
      initialFocusRef={cancelRef}
      icon={dupe ? <AlertIcon size={22} /> : <CartIcon size={22} />}
      title={dupe ? t('cart.confirm.dupeTitle') : t('cart.confirm.anotherTitle')}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button onClick={onProceed}>{t('cart.confirm.proceed')}</Button>
        </>
      }
    >
      {product && dupe ? <p>{t('cart.confirm.dupe', { name: product.name })}</p> : null}
      {product && quantityInCart > 0 ? (
        <p>
          {dupe
            ? t('cart.confirm.alreadyInCart', { count: quantityInCart })
            : t('cart.confirm.addOneMore', { count: quantityInCart, name: product.name })}
        </p>
      ) : null}
    </Modal>
  );
}
