import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/components/ui/toast';
import { errorMessage, fieldErrors } from '@/lib/api-client';

import type { StaffPromoCode } from '@/features/promo-codes/api/get-promo-codes';
import { useUpdatePromoCode } from '@/features/promo-codes/api/update-promo-code';

import {
  promoChangeBody,
  promoEditValues,
  validatePromoEdit,
  type PromoEditErrors,
  type PromoEditValues,
} from './promo-code-form-values';

import './promo-code-modal.css';

type PromoCodeEditModalProps = {
  code: StaffPromoCode;
  onClose: () => void;
};

/**
 * Edits a code's discount, expiry, use limit and whether it is active; the code itself stays.
 * A change applies to later orders only.
 */
export function PromoCodeEditModal({ code, onClose }: PromoCodeEditModalProps) {
  const [values, setValues] = useState<PromoEditValues>(() => promoEditValues(code));
  const [errors, setErrors] = useState<PromoEditErrors>({});
  const update = useUpdatePromoCode();

  const set = <K extends keyof PromoEditValues>(name: K, value: PromoEditValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePromoEdit(values, code.uses);
    setErrors(found);
    if (Object.keys(found).length) return;
    const change = promoChangeBody(values, code);
    if (Object.keys(change).length === 0) {
      onClose();
      return;
    }
    update.mutate(
      { id: code.id, change },
      {
        onSuccess: () => {
          toast.success(`Promo code ${code.code} saved.`);
          onClose();
        },
        onError: (error) => {
          console.error('Saving the promo code failed.', error);
          const byField = Object.fromEntries(
            Object.entries(fieldErrors(error)).filter(([field]) => field in values),
          );
          setErrors(byField);
          // a field's own message shows under it; anything else as a toast
          if (Object.keys(byField).length === 0) toast.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <Modal open onClose={onClose} title={`Edit ${code.code}`}>
      <form className="promo-form" noValidate onSubmit={onSubmit}>
        <p className="promo-form__note">Changes apply to orders placed from now on.</p>
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
        <Field
          label="Maximum uses"
          optional
          error={errors.max_uses}
          hint={`Used ${code.uses} ${code.uses === 1 ? 'time' : 'times'} so far. Empty: no limit.`}
        >
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
        <label className="form-check">
          <input
            type="checkbox"
            checked={values.active}
            onChange={(event) => set('active', event.currentTarget.checked)}
          />
          Active: shoppers can use it
        </label>
        <div className="promo-form__actions">
          <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save changes
          </Button>
        </div>
      </form>
    </Modal>
  );
}
