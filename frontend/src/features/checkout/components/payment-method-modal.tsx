import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { CardIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { formatMinor, withFee, type Currency, type PaymentMethod } from '@/lib/currency';

type PaymentMethodModalProps = {
  open: boolean;
  onClose: () => void;
  /** The items' total after the discount, before any fee, in minor units of `currency`. */
  total: number;
  currency: Currency;
  paypalEnabled: boolean;
  onChoose: (method: PaymentMethod) => void;
  /** The method whose payment is starting: every choice is disabled meanwhile. */
  processing: PaymentMethod | null;
};

/** Each method's name and what it takes, in the shop's language. */
function methodWords(method: PaymentMethod): { label: string; description: string } {
  return method === 'card'
    ? {
        label: i18next.t('checkout.method.card'),
        description: 'Visa, Mastercard, Apple Pay, Google Pay',
      }
    : { label: 'PayPal', description: i18next.t('checkout.method.paypal') };
}

/**
 * How to pay: card always, PayPal only when the shop has it on and it can pay in the currency.
 * Each shows its own total.
 */
export function PaymentMethodModal({
  open,
  onClose,
  total,
  currency,
  paypalEnabled,
  onChoose,
  processing,
}: PaymentMethodModalProps) {
  const { t } = useTranslation();
  const methods: PaymentMethod[] = paypalEnabled ? ['card', 'paypal'] : ['card'];
  return (
    <Modal
      open={open}
      // Leaving mid-way would hide the 'Processing...' state while the order is being created.
      onClose={() => {
        if (processing === null) onClose();
      }}
      icon={<CardIcon size={22} />}
      title={t('checkout.method.title')}
    >
      <p className="payment-methods__intro">{t('checkout.method.intro')}</p>
      <ul className="payment-methods" aria-label={t('checkout.method.list')}>
        {methods.map((method) => {
          const { fee, grandTotal } = withFee(currency, total, method);
          return (
            <li key={method}>
              <button
                type="button"
                className="payment-method"
                disabled={processing !== null}
                aria-busy={processing === method || undefined}
                onClick={() => onChoose(method)}
              >
                <span className="payment-method__label">
                  {processing === method
                    ? t('checkout.method.processing')
                    : methodWords(method).label}
                </span>
                <span className="payment-method__description">
                  {methodWords(method).description}
                </span>
                <span className="payment-method__amount">
                  {formatMinor(grandTotal, currency)}
                  <span className="payment-method__fee">
                    {t('checkout.method.fee', { fee: formatMinor(fee, currency) })}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
