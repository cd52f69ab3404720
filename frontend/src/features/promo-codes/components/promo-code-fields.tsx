import { Field } from '@/components/ui/field';

import type { StaffPromoCode } from '@/features/promo-codes/api/get-promo-codes';

import type { PromoFormErrors, PromoFormValues } from './promo-code-form-values';

type PromoCodeFieldsProps = {
  /** The code being edited; a new code has its Code field instead of the Active switch. */
  code?: StaffPromoCode;
  values: PromoFormValues;
  errors: PromoFormErrors;
  set: <K extends keyof PromoFormValues>(name: K, value: PromoFormValues[K]) => void;
};

function maxUsesHint(code: StaffPromoCode | undefined): string {
  if (!code) return 'Empty: no limit.';
  return `Used ${code.uses} ${code.uses === 1 ? 'time' : 'times'} so far. Empty: no limit.`;
}

/** The promo code form's fields: Code (new codes only), discount, expiry, use limit, Active (edits only). */
export function PromoCodeFields({ code, values, errors, set }: PromoCodeFieldsProps) {
  return (
    <>
      {code ? null : (
        <Field label="Code" error={errors.code} hint="Saved in capitals, e.g. SUMMER10.">
          {(control) => (
            <input
              {...control}
              className="form-control"
              required
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={values.code}
              onChange={(event) => set('code', event.currentTarget.value.toUpperCase())}
            />
          )}
        </Field>
      )}
      <Field label="Discount (%)" error={errors.discount_percent}>
        {(control) => (
          <input
            {...control}
            className="form-control"
            required
            inputMode="numeric"
            value={values.discount_percent}
            onChange={(event) => set('discount_percent', event.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Expires" optional error={errors.expires_at} hint="Empty: never expires.">
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            className="form-control"
            value={values.expires_at}
            onChange={(event) => set('expires_at', event.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Maximum uses" optional error={errors.max_uses} hint={maxUsesHint(code)}>
        {(control) => (
          <input
            {...control}
            className="form-control"
            inputMode="numeric"
            value={values.max_uses}
            onChange={(event) => set('max_uses', event.currentTarget.value)}
          />
        )}
      </Field>
      {code ? (
        <label className="form-check">
          <input
            type="checkbox"
            checked={values.active}
            onChange={(event) => set('active', event.currentTarget.checked)}
          />
          Active: shoppers can use it
        </label>
      ) : null}
    </>
  );
}
