import { useEffect, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { ShieldIcon } from '@/components/ui/icons';
import { toast } from '@/components/ui/toast';
import { useDiscordIdentity } from '@/features/checkout/api/get-discord-identity';
import { useUnlinkDiscord } from '@/features/checkout/api/unlink-discord';
import { useStartPayment } from '@/features/checkout/api/start-payment';
import { useValidatePromo } from '@/features/checkout/api/validate-promo';
import { DiscordLink } from '@/features/checkout/components/discord-link';
import { Notice } from '@/features/checkout/components/notice';
import { OrderLines } from '@/features/checkout/components/order-lines';
import { PaymentMethodModal } from '@/features/checkout/components/payment-method-modal';
import { PriceBreakdown } from '@/features/checkout/components/price-breakdown';
import { PriceChangedModal } from '@/features/checkout/components/price-changed-modal';
import { PromoCodeForm, type PromoMessage } from '@/features/checkout/components/promo-code-form';
import { RobloxUsernameField } from '@/features/checkout/components/roblox-username-field';
import { useCheckoutDetails } from '@/features/checkout/hooks/use-checkout-details';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';
import type { CheckoutItem, OrderPayload, ServerPricedCart } from '@/features/checkout/types';
import { NO_REDIRECT_URL, toPaymentFailure } from '@/features/checkout/utils/payment-errors';
import { redirectTo } from '@/features/checkout/utils/redirect';
import { STOCK_PROBLEMS_TITLE, stockProblems } from '@/features/checkout/utils/stock-problems';
import { ApiError, errorMessage } from '@/lib/api-client';
import { checkoutAmounts, fromCents, type PaymentMethod } from '@/lib/checkout-amounts';
import { toCents } from '@/lib/money';

import './checkout-view.css';

export const DETAILS_REQUIRED = 'Please enter your Roblox username and email, and link Discord.';
export const PROMO_NEEDS_CODE_AND_DISCORD =
  'Enter your promo code and make sure Discord is linked.';
export const INVALID_PROMO = 'Invalid promo code';

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
};

type AppliedPromo = { code: string; percent: number };

/** The promo's failure reason from the server (422), else the spec's generic one. */
function promoFailureReason(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    const body = error.body as { message?: unknown; reason?: unknown } | undefined;
    const reason = body?.reason ?? body?.message;
    if (typeof reason === 'string' && reason) return reason;
  }
  return INVALID_PROMO;
}

export function CheckoutView({
  items,
  liveProducts,
  userId,
  paypalEnabled,
  notice,
  onPricesChanged,
}: CheckoutViewProps) {
  const [details, updateDetails] = useCheckoutDetails();
  const [promoCode, setPromoCode] = useState('');
  const [promo, setPromo] = useState<AppliedPromo | null>(null);
  const [promoMessage, setPromoMessage] = useState<PromoMessage | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[] | null>(null);
  const [methodOpen, setMethodOpen] = useState(false);
  const [processing, setProcessing] = useState<PaymentMethod | null>(null);
  const [priceChange, setPriceChange] = useState<{
    cart: ServerPricedCart;
    message: string;
    method: PaymentMethod;
  } | null>(null);

  // The linked Discord account: the server's session is the truth; the saved copy shows first.
  const serverIdentity = useDiscordIdentity();
  const savedIdentity = useDiscordLinkStore((state) => state.identity);
  useEffect(() => {
    if (serverIdentity.isSuccess) useDiscordLinkStore.getState().setIdentity(serverIdentity.data);
  }, [serverIdentity.isSuccess, serverIdentity.data]);
  const identity = serverIdentity.isSuccess ? serverIdentity.data : savedIdentity;

  // A promo is redeemed by a Discord account: without one it no longer applies.
  const discordId = identity?.discord_id ?? null;
  const [promoOwner, setPromoOwner] = useState(discordId);
  if (promoOwner !== discordId) {
    setPromoOwner(discordId);
    if (promo) {
      setPromo(null);
      setPromoMessage(null);
    }
  }

  const unlink = useUnlinkDiscord();
  const validatePromo = useValidatePromo();
  const startPayment = useStartPayment();

  const discountPercent = promo?.percent ?? 0;
  const amounts = checkoutAmounts(items, discountPercent, 'card');

  const resetPromo = (message: string) => {
    setPromo(null);
    setPromoMessage({ tone: 'error', text: message });
  };

  const applyPromo = () => {
    const code = promoCode.trim();
    if (!code || !identity) {
      resetPromo(PROMO_NEEDS_CODE_AND_DISCORD);
      return;
    }
    validatePromo.mutate(
      { promo_code: code, discord_id: identity.discord_id },
      {
        onSuccess: (discount) => {
          if (discount > 0) {
            setPromo({ code, percent: discount });
            setPromoMessage({
              tone: 'success',
              text: `${code.toUpperCase()} applied: ${discount}% off.`,
            });
          } else {
            resetPromo(INVALID_PROMO);
          }
        },
        onError: (error) => resetPromo(promoFailureReason(error)),
      },
    );
  };

  const changePromoCode = (value: string) => {
    setPromoCode(value);
    // What is applied must be what the order sends.
    if (promo && value.trim() !== promo.code) {
      setPromo(null);
      setPromoMessage(null);
    }
  };

  const completePayment = () => {
    setFormError(null);
    setProblems(null);
    if (!details.robloxUsername.trim() || !details.email.trim() || !identity) {
      setFormError(DETAILS_REQUIRED);
      return;
    }
    const found = stockProblems(items, liveProducts);
    if (found.length > 0) {
      setProblems(found);
      return;
    }
    setMethodOpen(true);
  };

  const pay = (method: PaymentMethod, confirmed?: ServerPricedCart) => {
    if (!identity) return;
    // After a price change the shopper agreed to the server's total (and its discount).
    const keepPromo = confirmed ? (confirmed.discount_percent ?? 0) > 0 : discountPercent > 0;
    const order: OrderPayload = {
      discord_id: identity.discord_id,
      email: details.email.trim(),
      roblox_username: details.robloxUsername.trim(),
      items: items.map(({ id, name, description, price, qty, stock, weight, mutation }) => ({
        id,
        name,
        description,
        price,
        qty,
        stock,
        weight,
        mutation,
      })),
      total: confirmed ? fromCents(toCents(confirmed.total)) : fromCents(amounts.totalCents),
      user_id: userId,
      ...(keepPromo && promo ? { promo_code: promo.code } : {}),
    };
    setProcessing(method);
    setFormError(null);
    setProblems(null);
    startPayment.mutate(
      { method, order },
      {
        onSuccess: (session) => {
          const url =
            method === 'paypal'
              ? (session.approval_url ?? session.url)
              : (session.url ?? session.approval_url);
          if (url) {
            // The page is leaving: the buttons stay on 'Processing...'.
            redirectTo(url);
            return;
          }
          setProcessing(null);
          setMethodOpen(false);
          setPriceChange(null);
          setFormError(NO_REDIRECT_URL);
        },
        onError: (error) => {
          setProcessing(null);
          setMethodOpen(false);
          setPriceChange(null);
          const failure = toPaymentFailure(error);
          if (failure.kind === 'stock') {
            setProblems(failure.problems);
          } else if (failure.kind === 'price') {
            onPricesChanged?.();
            if ((failure.cart.discount_percent ?? 0) === 0 && promo) setPromo(null);
            setPriceChange({ cart: failure.cart, message: failure.message, method });
          } else {
            setFormError(failure.message);
          }
        },
      },
    );
  };

  const unlinkDiscord = () =>
    unlink.mutate(undefined, {
      onSuccess: () => {
        useDiscordLinkStore.getState().setIdentity(null);
        toast.info('Discord unlinked');
      },
      onError: (error) => toast.error(errorMessage(error)),
    });

  return (
    <div className="checkout">
      <section className="checkout__card checkout__items" aria-labelledby="summary-title">
        <h2 id="summary-title" className="checkout__section-title">
          Order summary
        </h2>
        <OrderLines items={items} />
      </section>

      <section className="checkout__card checkout__details" aria-labelledby="details-title">
        <h2 id="details-title" className="checkout__section-title">
          Your details
        </h2>
        {notice ? (
          <Notice tone={notice.tone} role={notice.tone === 'error' ? 'alert' : 'status'}>
            <p>{notice.message}</p>
          </Notice>
        ) : null}
        <DiscordLink identity={identity} onUnlink={unlinkDiscord} unlinking={unlink.isPending} />
        <RobloxUsernameField
          value={details.robloxUsername}
          onChange={(robloxUsername) => updateDetails({ robloxUsername })}
          preview={details.robloxPreview}
          onPreviewChange={(robloxPreview) => updateDetails({ robloxPreview })}
        />
        <Field label="Email" hint="For your receipt and order updates." hintPosition="above">
          {(control) => (
            <input
              {...control}
              className="checkout-field__input"
              type="email"
              name="email"
              autoComplete="email"
              value={details.email}
              onChange={(event) => updateDetails({ email: event.target.value })}
            />
          )}
        </Field>
      </section>

      <section className="checkout__card checkout__totals" aria-labelledby="payment-title">
        <h2 id="payment-title" className="visually-hidden">
          Payment
        </h2>
        <PromoCodeForm
          code={promoCode}
          onCodeChange={changePromoCode}
          onApply={applyPromo}
          applying={validatePromo.isPending}
          message={promoMessage}
        />
        <PriceBreakdown amounts={amounts} discountPercent={discountPercent} />
        {formError ? (
          <Notice tone="error">
            <p>{formError}</p>
          </Notice>
        ) : null}
        {problems ? (
          <Notice tone="error" title={STOCK_PROBLEMS_TITLE}>
            <ul className="checkout-notice__list">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        <Button
          size="lg"
          fullWidth
          onClick={completePayment}
          disabled={processing !== null}
          startIcon={<ShieldIcon />}
        >
          Complete Payment
        </Button>
        <p className="checkout__secure">
          Card payments are processed securely by Stripe. Delivery usually takes under 10 minutes.
        </p>
      </section>

      <PaymentMethodModal
        open={methodOpen}
        onClose={() => setMethodOpen(false)}
        totalCents={amounts.totalCents}
        paypalEnabled={paypalEnabled}
        onChoose={(method) => pay(method)}
        processing={priceChange ? null : processing}
      />
      <PriceChangedModal
        cart={priceChange?.cart ?? null}
        message={priceChange?.message ?? ''}
        onCancel={() => setPriceChange(null)}
        onConfirm={() => priceChange && pay(priceChange.method, priceChange.cart)}
        confirming={priceChange !== null && processing !== null}
      />
    </div>
  );
}
