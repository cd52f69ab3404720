import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { fieldErrors } from '@/lib/api-client';

import { useCreatePromoCode } from '@/features/promo-codes/api/create-promo-code';

import {
  EMPTY_PROMO_FORM,
  promoCodeBody,
  validatePromoForm,
  type PromoCodeFormErrors,
  type PromoCodeFormValues,
} from './promo-code-form-values';

import './promo-code-modal.css';

export const PROMO_CREATED = 'Promo code created successfully!';
export const PROMO_FAILED = 'Failed to create promo code.';

type PromoCodeModalProps = {
  open: boolean;
  onClose: () => void;
};

/** A new promo code: code (forced uppercase), discount percent, optional expiry and use limit. */
export function PromoCodeModal({ open, onClose }: PromoCodeModalProps) {
  const [values, setValues] = useState<PromoCodeFormValues>(EMPTY_PROMO_FORM);
  const [errors, setErrors] = useState<PromoCodeFormErrors>({});
  const create = useCreatePromoCode();

  const set = (name: keyof PromoCodeFormValues, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const close = () => {
    setValues(EMPTY_PROMO_FORM);
    setErrors({});
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePromoForm(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    create.mutate(promoCodeBody(values), {
      onSuccess: () => {
        toast.success(PROMO_CREATED);
        close();
      },
      onError: (error) => {
        console.error('Creating the promo code failed.', error);
        // The form passed its own checks, so only a 422's messages can show here.
        setErrors(
          Object.fromEntries(
            Object.entries(fieldErrors(error)).filter(([field]) => field in EMPTY_PROMO_FORM),
          ),
        );
        toast.error(PROMO_FAILED);
      },
    });
  };

  return (
    <Modal open={open} onClose={close} title="Add promo code">
      <form id="promo-code-form" className="promo-form" noValidate onSubmit={onSubmit}>
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
        <Field label="Maximum uses" optional error={errors.max_uses} hint="Empty: no limit.">
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
        <div className="promo-form__actions">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create promo code
          </Button>
        </div>
      </form>
    </Modal>
  );
}
