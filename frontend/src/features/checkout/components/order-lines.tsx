import { useTranslation } from 'react-i18next';
import type { CheckoutItem } from '@/features/checkout/types';
import { formatLinePrice } from '@/lib/currency';
import { useCurrency } from '@/lib/currency-choice';

/** The summary list: each line's name, quantity and price. */
export function OrderLines({ items }: { items: readonly CheckoutItem[] }) {
  const { t } = useTranslation();
  const { currency } = useCurrency();
  return (
    <ul className="order-lines" aria-label={t('checkout.orderItems')}>
      {items.map((item) => (
        <li key={item.id} className="order-lines__line">
          <span className="order-lines__name">{item.name}</span>
          <span
            className="order-lines__qty"
            aria-label={t('checkout.quantity', { count: item.qty })}
          >
            × {item.qty}
          </span>
          <span className="order-lines__price">
            {formatLinePrice(item.price, item.qty, currency)}
          </span>
        </li>
      ))}
    </ul>
  );
}
