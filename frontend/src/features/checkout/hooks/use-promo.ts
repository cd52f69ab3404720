import i18next from 'i18next';
import { useState } from 'react';

import { useValidatePromo } from '@/features/checkout/api/validate-promo';
import type { PromoMessage } from '@/features/checkout/components/promo-code-form';
import { ApiError } from '@/lib/api-client';

/** What Apply says is missing, by name: a typed code is never told to be entered. */
export const PROMO_NEEDS_CODE = () => i18next.t('checkout.promo.needsCode');
export const PROMO_NEEDS_DISCORD = () => i18next.t('checkout.promo.needsDiscord');
export const PROMO_NEEDS_CODE_AND_DISCORD = () => i18next.t('checkout.promo.needsCodeAndDiscord');
export const INVALID_PROMO = () => i18next.t('checkout.promo.invalid');

/** A code the server accepted, with its discount. */
export type AppliedPromo = { code: string; percent: number };

/** The promo's failure reason from the server (422), else the spec's generic one. */
function promoFailureReason(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    const body = error.body as { message?: unknown; reason?: unknown } | undefined;
    const reason = body?.reason ?? body?.message;
    if (typeof reason === 'string' && reason) return reason;
  }
  return INVALID_PROMO();
}

/** What is missing before a code can be checked, or null when nothing is. */
function missingForPromo(code: string, discordId: string | null): string | null {
  if (!code && !discordId) return PROMO_NEEDS_CODE_AND_DISCORD();
  if (!code) return PROMO_NEEDS_CODE();
  if (!discordId) return PROMO_NEEDS_DISCORD();
  return null;
}

type UsePromoOptions = {
  /** The code typed before (kept for the tab across the Discord sign-in). */
  savedCode?: string;
  /** Every change of the typed code, to keep it. */
  onCodeChange?: (code: string) => void;
};

/**
 * The promo code box of the checkout: what is typed, what the server accepted for this Discord
 * account (docs/product.md, Behaviour: the discount resets to 0 on any failure), and the message under the box.
 * A promo belongs to the Discord account that redeemed it: linking another one drops it, and so
 * does changing the code, so what is applied is always what the order sends.
 */
export function usePromo(
  discordId: string | null,
  { savedCode = '', onCodeChange }: UsePromoOptions = {},
) {
  const [code, setCode] = useState(savedCode);
  const [applied, setApplied] = useState<AppliedPromo | null>(null);
  const [message, setMessage] = useState<PromoMessage | null>(null);
  const [owner, setOwner] = useState(discordId);
  const validate = useValidatePromo();

  if (owner !== discordId) {
    setOwner(discordId);
    if (applied) {
      setApplied(null);
      setMessage(null);
    }
  }

  const fail = (text: string) => {
    setApplied(null);
    setMessage({ tone: 'error', text });
  };

  const apply = () => {
    const trimmed = code.trim();
    const missing = missingForPromo(trimmed, discordId);
    if (missing || !discordId) {
      fail(missing ?? PROMO_NEEDS_DISCORD());
      return;
    }
    validate.mutate(
      { promo_code: trimmed, discord_id: discordId },
      {
        onSuccess: (discount) => {
          if (discount > 0) {
            setApplied({ code: trimmed, percent: discount });
            setMessage({
              tone: 'success',
              text: `${trimmed.toUpperCase()} applied: ${discount}% off.`,
            });
          } else {
            fail(INVALID_PROMO());
          }
        },
        onError: (error) => fail(promoFailureReason(error)),
      },
    );
  };

  const changeCode = (value: string) => {
    setCode(value);
    onCodeChange?.(value);
    if (applied && value.trim() !== applied.code) {
      setApplied(null);
      setMessage(null);
    }
  };

  return {
    code,
    changeCode,
    apply,
    applying: validate.isPending,
    message,
    applied,
    /** 0 without a promo. */
    discountPercent: applied?.percent ?? 0,
    /** The server priced the order without it (a price change): it no longer applies. */
    drop: () => setApplied(null),
  };
}
