import type { NewPromoCode } from '@/features/promo-codes/api/create-promo-code';

export type PromoCodeFormValues = {
  code: string;
  discount_percent: string;
  /** The value of a datetime-local input ("2026-12-31T23:59"), '' for no expiry. */
  expires_at: string;
  max_uses: string;
};

export type PromoCodeFormErrors = Partial<Record<keyof PromoCodeFormValues, string>>;

export const EMPTY_PROMO_FORM: PromoCodeFormValues = {
  code: '',
  discount_percent: '',
  expires_at: '',
  max_uses: '',
};

/** Code and discount required (spec §5); the server checks the range and uniqueness again. */
export function validatePromoForm(values: PromoCodeFormValues): PromoCodeFormErrors {
  const errors: PromoCodeFormErrors = {};
  if (!values.code.trim()) errors.code = 'Enter a code.';
  const percent = values.discount_percent.trim();
  if (!percent) errors.discount_percent = 'Enter a discount.';
  else if (!/^\d+$/.test(percent) || Number(percent) < 1 || Number(percent) > 100)
    errors.discount_percent = 'The discount is a whole percent from 1 to 100.';
  const maxUses = values.max_uses.trim();
  if (maxUses && (!/^\d+$/.test(maxUses) || Number(maxUses) < 1))
    errors.max_uses = 'Leave it empty for no limit, or enter 1 or more.';
  if (values.expires_at && Number.isNaN(new Date(values.expires_at).getTime()))
    errors.expires_at = 'Enter a valid date and time.';
  return errors;
}

/** The body of POST /api/admin/promo-codes: the code uppercased, the local expiry as ISO. */
export function promoCodeBody(values: PromoCodeFormValues): NewPromoCode {
  const maxUses = values.max_uses.trim();
  return {
    code: values.code.trim().toUpperCase(),
    discount_percent: Number(values.discount_percent.trim()),
    expires_at: values.expires_at ? new Date(values.expires_at).toISOString() : null,
    ...(maxUses ? { max_uses: Number(maxUses) } : {}),
  };
}
