import { CardIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import {
  fromCents,
  grandTotalCents,
  processingFeeCents,
  type PaymentMethod,
} from '@/lib/checkout-amounts';
import { formatPrice } from '@/lib/money';

type PaymentMethodModalProps = {
  open: boolean;
  onClose: () => void;
  /** The items' total after the discount, before any fee. */
  totalCents: number;
  paypalEnabled: boolean;
  onChoose: (method: PaymentMethod) => void;
  /** The method whose payment is starting: every choice is disabled meanwhile. */
  processing: PaymentMethod | null;
};

const METHODS: Record<PaymentMethod, { label: string; description: string }> = {
  card: { label: 'Card', description: 'Visa, Mastercard, Apple Pay, Google Pay' },
  paypal: { label: 'PayPal', description: 'Pay with your PayPal account' },
};

/** How to pay: card always, PayPal only when the shop has it on. Each shows its own total. */
export function PaymentMethodModal({
  open,
  onClose,
  totalCents,
  paypalEnabled,
  onChoose,
  processing,
}: PaymentMethodModalProps) {
  const methods: PaymentMethod[] = paypalEnabled ? ['card', 'paypal'] : ['card'];
  return (
    <Modal
      open={open}
      // Leaving mid-way would hide the 'Processing...' state while the order is being created.
      onClose={() => {
        if (processing === null) onClose();
      }}
      icon={<CardIcon size={22} />}
      title="Choose a payment method"
    >
      <p className="payment-methods__intro">
        You will finish paying on the provider&apos;s secure page. We never see your card details.
      </p>
      <ul className="payment-methods" aria-label="Payment methods">
        {methods.map((method) => {
          const fee = processingFeeCents(totalCents, method);
          const grand = grandTotalCents(totalCents, method);
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
                  {processing === method ? 'Processing...' : METHODS[method].label}
                </span>
                <span className="payment-method__description">{METHODS[method].description}</span>
                <span className="payment-method__amount">
                  {formatPrice(fromCents(grand))}
                  <span className="payment-method__fee">
                    incl. {formatPrice(fromCents(fee))} processing fee
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
