import i18next from 'i18next';
import { useRef, useState } from 'react';

import { isUnanswered, useStartPayment } from '@/features/checkout/api/start-payment';
import type { CheckoutDetails } from '@/features/checkout/hooks/use-checkout-details';
import type { AppliedPromo } from '@/features/checkout/hooks/use-promo';
import type {
  CheckoutItem,
  DiscordIdentity,
  OrderPayload,
  PaymentSession,
  ServerPricedCart,
} from '@/features/checkout/types';
import { newIdempotencyKey } from '@/features/checkout/utils/idempotency-key';
import {
  NO_REDIRECT_URL,
  toPaymentFailure,
  type CheckoutFieldErrors,
  type PaymentFailure,
} from '@/features/checkout/utils/payment-errors';
import { redirectTo } from '@/features/checkout/utils/redirect';
import { stockProblems } from '@/features/checkout/utils/stock-problems';
import { rememberOrderKey } from '@/features/checkout/utils/order-key';
import { majorUnits, type Currency, type PaymentMethod } from '@/lib/currency';

/** Spec §5: the summary line over the fields' own messages, when all three are missing. */
export const DETAILS_REQUIRED = () => i18next.t('checkout.missing.all');

/**
 * The summary line naming only what is still missing ("Please enter your email and link
 * Discord."); null when nothing is.
 */
export function detailsSummary(missing: CheckoutFieldErrors): string | null {
  const { roblox_username: roblox, email, discord } = missing;
  if (roblox && email && discord) return DETAILS_REQUIRED();
  if (roblox && email) return i18next.t('checkout.missing.robloxAndEmail');
  if (roblox && discord) return i18next.t('checkout.missing.robloxAndDiscord');
  if (email && discord) return i18next.t('checkout.missing.emailAndDiscord');
  if (roblox) return i18next.t('checkout.missing.roblox');
  if (email) return i18next.t('checkout.missing.email');
  if (discord) return i18next.t('checkout.missing.discord');
  return null;
}

/** Each missing detail's own message, under its field. */
export const FIELD_REQUIRED = {
  roblox_username: () => i18next.t('checkout.required.roblox'),
  email: () => i18next.t('checkout.required.email'),
  discord: () => i18next.t('checkout.required.discord'),
} as const satisfies Record<keyof CheckoutFieldErrors, () => string>;

/** The details still missing, each with its message; empty when all are there. */
export function missingDetails(
  details: Pick<CheckoutDetails, 'robloxUsername' | 'email'>,
  identity: DiscordIdentity | null,
): CheckoutFieldErrors {
  const missing: CheckoutFieldErrors = {};
  if (!details.robloxUsername.trim()) missing.roblox_username = FIELD_REQUIRED.roblox_username();
  if (!details.email.trim()) missing.email = FIELD_REQUIRED.email();
  if (!identity) missing.discord = FIELD_REQUIRED.discord();
  return missing;
}

/** The server priced the order differently: its cart, waiting for the shopper's yes. */
export type PriceChange = { cart: ServerPricedCart; message: string; method: PaymentMethod };

type UsePaymentOptions = {
  items: readonly CheckoutItem[];
  /** The live product list (id and stock), for the stock check; undefined while loading. */
  liveProducts?: ReadonlyArray<{ id: number; stock: number | null }>;
  identity: DiscordIdentity | null;
  details: Pick<CheckoutDetails, 'robloxUsername' | 'email'>;
  userId: number | null;
  /**
   * The items' total after the discount, before the fee, in minor units of `currency`: the
   * order's `total`, charged in that currency.
   */
  charged: { total: number; currency: Currency };
  promo: AppliedPromo | null;
  /** The server's prices differ from the cart's; `promoKept` is false when it dropped the promo. */
  onPricesChanged: (promoKept: boolean) => void;
};

/** The order as sent: after a price change, the server's total (and its discount) agreed to. */
function orderPayload({
  identity,
  details,
  items,
  userId,
  charged,
  promo,
  confirmed,
}: Pick<UsePaymentOptions, 'details' | 'items' | 'userId' | 'charged' | 'promo'> & {
  identity: DiscordIdentity;
  confirmed?: ServerPricedCart;
}): OrderPayload {
  const keepPromo = confirmed ? (confirmed.discount_percent ?? 0) > 0 : promo !== null;
  return {
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
    // after a changed price, the server's cart in its currency (a changed rate included)
    total: confirmed ? confirmed.paid.total : majorUnits(charged.total, charged.currency),
    currency: confirmed ? confirmed.currency : charged.currency.code,
    user_id: userId,
    ...(keepPromo && promo ? { promo_code: promo.code } : {}),
  };
}

/** Where the provider takes the shopper: PayPal's approval page, else the session's page. */
function providerUrl(method: PaymentMethod, session: PaymentSession): string | null | undefined {
  return method === 'paypal'
    ? (session.approval_url ?? session.url)
    : (session.url ?? session.approval_url);
}

/** What the last press showed: a message, the fields' messages, stock problems, a price change. */
function useOutcome() {
  const [formError, setFormError] = useState<string | null>(null);
  /** Complete Payment found details missing: the summary follows what is still missing. */
  const [detailsChecked, setDetailsChecked] = useState(false);
  const [problems, setProblems] = useState<string[] | null>(null);
  const [priceChange, setPriceChange] = useState<PriceChange | null>(null);
  const fields = useFieldErrors();
  const clear = () => {
    setFormError(null);
    setProblems(null);
  };
  return {
    formError,
    setFormError,
    detailsChecked,
    setDetailsChecked,
    fields,
    clear,
    problems,
    setProblems,
    priceChange,
    setPriceChange,
  };
}

/** Where a failed start is shown: the stock alert, the changed-price review, or a message. */
function showFailure(
  failure: PaymentFailure,
  method: PaymentMethod,
  view: {
    setProblems: (problems: string[]) => void;
    setPriceChange: (change: PriceChange) => void;
    setFormError: (message: string) => void;
    fields: { show: (fields: CheckoutFieldErrors) => void };
    onPricesChanged: (promoKept: boolean) => void;
  },
) {
  if (failure.kind === 'stock') {
    view.setProblems(failure.problems);
  } else if (failure.kind === 'price') {
    view.onPricesChanged((failure.cart.discount_percent ?? 0) > 0);
    view.setPriceChange({ cart: failure.cart, message: failure.message, method });
  } else {
    view.setFormError(failure.message);
    view.fields.show(failure.fields);
  }
}

/** Goes to the provider's page (false when the answer names none), keeping the order's key. */
function leaveFor(method: PaymentMethod, session: PaymentSession): boolean {
  if (session.order_id && session.order_key) {
    // /success links the order's page with it, in this tab only.
    rememberOrderKey(session.order_id, session.order_key);
  }
  const url = providerUrl(method, session);
  if (url) redirectTo(url);
  return Boolean(url);
}

/**
 * The press the shop has not answered yet keeps its key, for the same order sent again; an
 * answer, or a different order, makes a new one.
 */
function useIdempotencyKeys() {
  const unanswered = useRef<{ key: string; request: string } | null>(null);
  return {
    keyFor: (request: string) => {
      const key =
        unanswered.current?.request === request ? unanswered.current.key : newIdempotencyKey();
      unanswered.current = { key, request };
      return key;
    },
    forget: () => {
      unanswered.current = null;
    },
  };
}

function withoutField(
  errors: CheckoutFieldErrors,
  field: keyof CheckoutFieldErrors,
): CheckoutFieldErrors {
  if (!(field in errors)) return errors;
  return Object.fromEntries(
    Object.entries(errors).filter(([name]) => name !== field),
  ) as CheckoutFieldErrors;
}

/** The fields' messages, and how many times some were shown (the page then moves focus). */
function useFieldErrors() {
  const [errors, setErrors] = useState<CheckoutFieldErrors>({});
  const [shown, setShown] = useState(0);
  return {
    errors,
    shown,
    /** Shows these messages (none clears them); true when there is one. */
    show: (next: CheckoutFieldErrors) => {
      setErrors(next);
      const some = Object.keys(next).length > 0;
      if (some) setShown((count) => count + 1);
      return some;
    },
    clear: (field: keyof CheckoutFieldErrors) =>
      setErrors((current) => withoutField(current, field)),
  };
}

/**
 * From Complete Payment to the provider's page (docs/product.md, Behaviour): check the details and the stock,
 * open the payment-method choice, start the payment ('Processing...' until the page leaves),
 * and sort a failure into a message, the stock alert or the changed-price review.
 *
 * Each press sends an `Idempotency-Key`. The shop may place the order and lose its answer (the
 * network, an instance that died): the press is then sent again with the same key, by itself a
 * few times and by the shopper's next press of the same order, and the shop answers the order it
 * placed instead of holding the stock twice. An answer (an error too) ends the key: the next
 * press, or a changed order, makes a new one.
 */
export function usePayment({
  items,
  liveProducts,
  identity,
  details,
  userId,
  charged,
  promo,
  onPricesChanged,
}: UsePaymentOptions) {
  const outcome = useOutcome();
  const { formError, setFormError, setDetailsChecked, fields, problems, setProblems } = outcome;
  const { priceChange, setPriceChange } = outcome;
  const [choosingMethod, setChoosingMethod] = useState(false);
  const [processing, setProcessing] = useState<PaymentMethod | null>(null);
  const startPayment = useStartPayment();
  const keys = useIdempotencyKeys();

  const complete = () => {
    outcome.clear();
    const missing = missingDetails(details, identity);
    const incomplete = fields.show(missing);
    setDetailsChecked(incomplete);
    if (incomplete) return;
    const found = stockProblems(items, liveProducts);
    if (found.length > 0) {
      setProblems(found);
      return;
    }
    setChoosingMethod(true);
  };

  const stopWith = (show: () => void) => {
    setProcessing(null);
    setChoosingMethod(false);
    setPriceChange(null);
    show();
  };

  const pay = (method: PaymentMethod, confirmed?: ServerPricedCart) => {
    if (!identity) return;
    const order = orderPayload({ identity, details, items, userId, charged, promo, confirmed });
    const idempotencyKey = keys.keyFor(JSON.stringify({ method, order }));
    setProcessing(method);
    outcome.clear();
    setDetailsChecked(false);
    fields.show({});
    startPayment.mutate(
      { method, order, idempotencyKey },
      {
        onSuccess: (session) => {
          // The page is leaving: the buttons stay on 'Processing...'.
          if (!leaveFor(method, session)) stopWith(() => setFormError(NO_REDIRECT_URL()));
        },
        onError: (error) => {
          if (!isUnanswered(error)) keys.forget();
          const failure = toPaymentFailure(error);
          stopWith(() => showFailure(failure, method, { ...outcome, onPricesChanged }));
        },
      },
    );
  };

  return {
    /** After a check found details missing: what is still missing, gone once nothing is. */
    formError: outcome.detailsChecked
      ? detailsSummary(missingDetails(details, identity))
      : formError,
    fieldErrorsShown: fields.shown,
    /** A message under each field the last check or the server's 422 found wanting. */
    fieldErrors: fields.errors,
    /** The shopper changed a field: its message goes (the summary stays until the next try). */
    clearFieldError: fields.clear,
    problems,
    /** Complete Payment: checks, then opens the payment-method choice. */
    complete,
    choosingMethod,
    closeMethods: () => setChoosingMethod(false),
    /** The method whose payment is starting, or null. */
    processing,
    pay: (method: PaymentMethod) => pay(method),
    priceChange,
    confirmPriceChange: () => {
      if (priceChange) pay(priceChange.method, priceChange.cart);
    },
    cancelPriceChange: () => setPriceChange(null),
  };
}
