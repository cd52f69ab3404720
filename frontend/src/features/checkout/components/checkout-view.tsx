import { Trans, useTranslation } from 'react-i18next';
import { useEffect, useRef, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { Field } from '@/components/ui/field';
import { ShieldIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { DiscordLink } from '@/features/checkout/components/discord-link';
import { Notice } from '@/features/checkout/components/notice';
import { OrderLines } from '@/features/checkout/components/order-lines';
import { PaymentMethodModal } from '@/features/checkout/components/payment-method-modal';
import { PriceBreakdown } from '@/features/checkout/components/price-breakdown';
import { PriceChangedModal } from '@/features/checkout/components/price-changed-modal';
import { PromoCodeForm } from '@/features/checkout/components/promo-code-form';
import { RobloxUsernameField } from '@/features/checkout/components/roblox-username-field';
import { useCheckoutDetails } from '@/features/checkout/hooks/use-checkout-details';
import { useLinkedDiscord } from '@/features/checkout/hooks/use-linked-discord';
import { usePayment } from '@/features/checkout/hooks/use-payment';
import { usePromo } from '@/features/checkout/hooks/use-promo';
import type { CheckoutItem } from '@/features/checkout/types';
import { STOCK_PROBLEMS_TITLE } from '@/features/checkout/utils/stock-problems';
import { chargeIn, type Charge, type Currency } from '@/lib/currency';
import { useCurrency } from '@/lib/currency-choice';
import { toCents } from '@/lib/money';

import './checkout-view.css';

/** A message the page arrives with, e.g. from /discord/callback. */
export type CheckoutNotice = { tone: 'error' | 'success'; message: string };

type CheckoutViewProps = {
  items: readonly CheckoutItem[];
  /** The live product list (id and stock), for the stock check; undefined while loading. */
  liveProducts?: ReadonlyArray<{ id: number; stock: number | null }>;
  userId: number | null;
  paypalEnabled: boolean;
  notice?: CheckoutNotice | null;
  /** The server's prices differ from the cart's: refresh the catalogue so the cart follows. */
  onPricesChanged?: () => void;
  /** The shop's delivery promise, "under N minutes" (the site's `DeliveryTime`). */
  deliveryTime: ReactNode;
  /** The shop's Discord invite; null when it has none. */
  discordInviteUrl?: string | null;
};

/** The cart in the shopper's currency, as the server will charge it (the card's fee shown first). */
function useCharge(items: readonly CheckoutItem[], discountPercent: number) {
  const { currency } = useCurrency();
  const lines = items.map((item) => ({ priceCents: toCents(item.price), qty: item.qty }));
  return { currency, amounts: chargeIn(currency, lines, discountPercent, 'card') };
}

/** The controls of the details marked in error, in page order: the Discord link, then inputs. */
const FIRST_FIELD_IN_ERROR = '[aria-invalid="true"], [aria-describedby~="discord-link-error"]';

type Payment = ReturnType<typeof usePayment>;
type Details = ReturnType<typeof useCheckoutDetails>;

/** Discord, Roblox name and e-mail; each field shows its error and clears it when edited. */
function DetailsFields({
  details: [details, updateDetails],
  discord,
  payment,
  discordInviteUrl,
}: {
  details: Details;
  discord: ReturnType<typeof useLinkedDiscord>;
  payment: Payment;
  discordInviteUrl: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <DiscordLink
        identity={discord.identity}
        onUnlink={discord.unlink}
        unlinking={discord.unlinking}
        error={discord.identity ? undefined : payment.fieldErrors.discord}
        invite={discordInviteUrl}
      />
      <RobloxUsernameField
        value={details.robloxUsername}
        onChange={(robloxUsername) => {
          updateDetails({ robloxUsername });
          payment.clearFieldError('roblox_username');
        }}
        preview={details.robloxPreview}
        onPreviewChange={(robloxPreview) => updateDetails({ robloxPreview })}
        error={payment.fieldErrors.roblox_username}
      />
      <Field
        label={t('checkout.email')}
        hint={t('checkout.emailHint')}
        hintPosition="above"
        error={payment.fieldErrors.email}
      >
        {(control) => (
          <input
            {...control}
            className="checkout-field__input"
            type="email"
            name="email"
            autoComplete="email"
            value={details.email}
            onChange={(event) => {
              updateDetails({ email: event.target.value });
              payment.clearFieldError('email');
            }}
          />
        )}
      </Field>
    </>
  );
}

/** What the payment refused as a whole: a form error, or the stock problems of the cart. */
function PaymentProblems({ payment }: { payment: Payment }) {
  return (
    <>
      {payment.formError ? (
        <Notice tone="error">
          <p>{payment.formError}</p>
        </Notice>
      ) : null}
      {payment.problems ? (
        <Notice tone="error" title={STOCK_PROBLEMS_TITLE()}>
          <ul className="checkout-notice__list">
            {payment.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
    </>
  );
}

/** The promo code, the price, what went wrong, Complete Payment and the words under it. */
function PaymentSummary({
  promo,
  amounts,
  currency,
  payment,
  deliveryTime,
}: {
  promo: ReturnType<typeof usePromo>;
  amounts: Charge;
  currency: Currency;
  payment: Payment;
  deliveryTime: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PromoCodeForm
        code={promo.code}
        onCodeChange={promo.changeCode}
        onApply={promo.apply}
        applying={promo.applying}
        message={promo.message}
      />
      <PriceBreakdown
        amounts={amounts}
        currency={currency}
        discountPercent={promo.discountPercent}
      />
      <PaymentProblems payment={payment} />
      <Button
        size="lg"
        fullWidth
        onClick={payment.complete}
        disabled={payment.processing !== null}
        startIcon={<ShieldIcon />}
      >
        {t('checkout.completePayment')}
      </Button>
      <p className="checkout__policy" data-testid="checkout-refund-policy">
        <Trans
          i18nKey="checkout.refundNote"
          components={{ policy: <ExternalLink href={paths.refundPolicy.getHref()} /> }}
        />
      </p>
      <p className="checkout__secure">
        <Trans i18nKey="checkout.secureNote" components={{ time: <>{deliveryTime}</> }} />
      </p>
    </>
  );
}

/** "Your details": the page's notice and the fields; focus goes to the first field in error. */
function DetailsSection({
  notice,
  ...fields
}: Parameters<typeof DetailsFields>[0] & { notice?: CheckoutNotice | null }) {
  const { t } = useTranslation();
  const { payment } = fields;
  const detailsSection = useRef<HTMLElement>(null);
  // Complete Payment (or the server) found fields wanting: the shopper is taken to the first one
  useEffect(() => {
    if (payment.fieldErrorsShown === 0) return;
    detailsSection.current?.querySelector<HTMLElement>(FIRST_FIELD_IN_ERROR)?.focus();
  }, [payment.fieldErrorsShown]);

  return (
    <section
      ref={detailsSection}
      className="checkout__card checkout__details"
      aria-labelledby="details-title"
      data-keep-clear
    >
      <h2 id="details-title" className="checkout__section-title">
        {t('checkout.yourDetails')}
      </h2>
      {notice ? (
        <Notice tone={notice.tone} role={notice.tone === 'error' ? 'alert' : 'status'}>
          <p>{notice.message}</p>
        </Notice>
      ) : null}
      <DetailsFields {...fields} />
    </section>
  );
}

/** How to pay (each method's total), and the server's fresh prices when they changed. */
function PaymentDialogs({
  payment,
  total,
  currency,
  paypalEnabled,
}: {
  payment: Payment;
  total: number;
  currency: Currency;
  paypalEnabled: boolean;
}) {
  return (
    <>
      <PaymentMethodModal
        open={payment.choosingMethod}
        onClose={payment.closeMethods}
        total={total}
        currency={currency}
        paypalEnabled={paypalEnabled && (currency.methods?.includes('paypal') ?? true)}
        onChoose={payment.pay}
        processing={payment.priceChange ? null : payment.processing}
      />
      <PriceChangedModal
        cart={payment.priceChange?.cart ?? null}
        message={payment.priceChange?.message ?? ''}
        onCancel={payment.cancelPriceChange}
        onConfirm={payment.confirmPriceChange}
        confirming={payment.priceChange !== null && payment.processing !== null}
      />
    </>
  );
}

export function CheckoutView({
  items,
  liveProducts,
  userId,
  paypalEnabled,
  notice,
  onPricesChanged,
  deliveryTime,
  discordInviteUrl = null,
}: CheckoutViewProps) {
  const { t } = useTranslation();
  const checkoutDetails = useCheckoutDetails();
  const [details, updateDetails] = checkoutDetails;
  const discord = useLinkedDiscord();
  const promo = usePromo(discord.identity?.discord_id ?? null, {
    savedCode: details.promoCode,
    onCodeChange: (promoCode) => updateDetails({ promoCode }),
  });
  const { currency, amounts } = useCharge(items, promo.discountPercent);
  const payment = usePayment({
    items,
    liveProducts,
    identity: discord.identity,
    details,
    userId,
    charged: { total: amounts.total, currency },
    promo: promo.applied,
    onPricesChanged: (promoKept) => {
      onPricesChanged?.();
      if (!promoKept) promo.drop();
    },
  });

  return (
    <div className="checkout">
      <section className="checkout__card checkout__items" aria-labelledby="summary-title">
        <h2 id="summary-title" className="checkout__section-title">
          {t('checkout.orderSummary')}
        </h2>
        <OrderLines items={items} />
      </section>

      <DetailsSection
        notice={notice}
        details={checkoutDetails}
        discord={discord}
        payment={payment}
        discordInviteUrl={discordInviteUrl}
      />

      <section
        className="checkout__card checkout__totals"
        aria-labelledby="payment-title"
        data-keep-clear
      >
        <h2 id="payment-title" className="visually-hidden">
          {t('checkout.payment')}
        </h2>
        <PaymentSummary
          promo={promo}
          amounts={amounts}
          currency={currency}
          payment={payment}
          deliveryTime={deliveryTime}
        />
      </section>

      <PaymentDialogs
        payment={payment}
        total={amounts.total}
        currency={currency}
        paypalEnabled={paypalEnabled}
      />
    </div>
  );
}
