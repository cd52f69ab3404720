import { useEffect, useState } from 'react';

import type { RobloxPreview } from '@/features/checkout/components/roblox-username-field';

/**
 * What the shopper typed on the checkout, kept for this tab only (sessionStorage) so that
 * leaving for Discord's authorization page and coming back does not empty the form.
 */
export const CHECKOUT_DETAILS_KEY = 'checkout_details';

export type CheckoutDetails = {
  robloxUsername: string;
  email: string;
  robloxPreview: RobloxPreview | null;
  /** The promo code as typed (applied or not: a code needs Discord, linked on that trip). */
  promoCode: string;
};

const EMPTY: CheckoutDetails = {
  robloxUsername: '',
  email: '',
  robloxPreview: null,
  promoCode: '',
};

function load(): CheckoutDetails {
  try {
    const saved = window.sessionStorage.getItem(CHECKOUT_DETAILS_KEY);
    if (!saved) return EMPTY;
    const parsed = JSON.parse(saved) as Partial<CheckoutDetails>;
    const preview = parsed.robloxPreview;
    return {
      robloxUsername: typeof parsed.robloxUsername === 'string' ? parsed.robloxUsername : '',
      email: typeof parsed.email === 'string' ? parsed.email : '',
      promoCode: typeof parsed.promoCode === 'string' ? parsed.promoCode : '',
      robloxPreview:
        preview && typeof preview.username === 'string' && typeof preview.avatarUrl === 'string'
          ? preview
          : null,
    };
  } catch {
    return EMPTY;
  }
}

export function useCheckoutDetails() {
  const [details, setDetails] = useState<CheckoutDetails>(load);
  useEffect(() => {
    try {
      window.sessionStorage.setItem(CHECKOUT_DETAILS_KEY, JSON.stringify(details));
    } catch {
      // Private mode: the form simply starts empty next time.
    }
  }, [details]);

  const update = (changes: Partial<CheckoutDetails>) =>
    setDetails((current) => ({ ...current, ...changes }));
  return [details, update] as const;
}
