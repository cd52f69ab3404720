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

/** Code and discount required (docs/product.md, Validation); the server checks the range and uniqueness again. */
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

/** An existing code's editable fields, as the edit form holds them. */
export type PromoEditValues = {
  discount_percent: string;
  /** A datetime-local value in the browser's time zone, '' for no expiry. */
  expires_at: string;
  max_uses: string;
  active: boolean;
};

export type PromoEditErrors = Partial<Record<keyof PromoEditValues, string>>;

/** The one promo code form's values: a new code uses `code`, an edit `active`. */
export type PromoFormValues = PromoCodeFormValues & PromoEditValues;

export type PromoFormErrors = Partial<Record<keyof PromoFormValues, string>>;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** An ISO time as a datetime-local input shows it, in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

type EditableCode = {
  discount_percent: number;
  expires_at?: string | null;
  max_uses?: number | null;
  active: boolean;
};

export function promoEditValues(code: EditableCode): PromoEditValues {
  return {
    discount_percent: String(code.discount_percent),
    expires_at: toLocalInput(code.expires_at),
    max_uses: code.max_uses == null ? '' : String(code.max_uses),
    active: code.active,
  };
}

/** As at creation, and the limit not below the uses so far (the server checks it again). */
export function validatePromoEdit(values: PromoEditValues, uses: number): PromoEditErrors {
  const errors: PromoEditErrors = {};
  const percent = values.discount_percent.trim();
  if (!percent) errors.discount_percent = 'Enter a discount.';
  else if (!/^\d+$/.test(percent) || Number(percent) < 1 || Number(percent) > 100)
    errors.discount_percent = 'The discount is a whole percent from 1 to 100.';
  const maxUses = values.max_uses.trim();
  if (maxUses && (!/^\d+$/.test(maxUses) || Number(maxUses) < 1))
    errors.max_uses = 'Leave it empty for no limit, or enter 1 or more.';
  else if (maxUses && Number(maxUses) < uses)
    errors.max_uses = `It has been used ${uses} times already: enter ${uses} or more.`;
  if (values.expires_at && Number.isNaN(new Date(values.expires_at).getTime()))
    errors.expires_at = 'Enter a valid date and time.';
  return errors;
}

/** The PATCH body: only the fields that differ from the code as it was loaded. */
export function promoChangeBody(values: PromoEditValues, code: EditableCode) {
  const before = promoEditValues(code);
  const change: {
    discount_percent?: number;
    expires_at?: string | null;
    max_uses?: number | null;
    active?: boolean;
  } = {};
  if (values.discount_percent.trim() !== before.discount_percent)
    change.discount_percent = Number(values.discount_percent.trim());
  if (values.expires_at !== before.expires_at)
    change.expires_at = values.expires_at ? new Date(values.expires_at).toISOString() : null;
  if (values.max_uses.trim() !== before.max_uses)
    change.max_uses = values.max_uses.trim() ? Number(values.max_uses.trim()) : null;
  if (values.active !== before.active) change.active = values.active;
  return change;
}
