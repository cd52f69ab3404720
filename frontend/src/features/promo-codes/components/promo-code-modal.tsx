import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { fieldErrors } from '@/lib/api-client';

import { useCreatePromoCode } from '@/features/promo-codes/api/create-promo-code';
import type { StaffPromoCode } from '@/features/promo-codes/api/get-promo-codes';
import { useUpdatePromoCode } from '@/features/promo-codes/api/update-promo-code';

import { PromoCodeFields } from './promo-code-fields';
import {
  EMPTY_PROMO_FORM,
  promoChangeBody,
  promoCodeBody,
  promoEditValues,
  validatePromoEdit,
  validatePromoForm,
  type PromoFormErrors,
  type PromoFormValues,
} from './promo-code-form-values';

import './promo-code-modal.css';

type PromoCodeModalProps = {
  /** The code to edit (its discount, expiry, use limit and whether it is active; the code itself
   * stays). Without it the modal adds a new code. */
  code?: StaffPromoCode;
  /** Whether the modal shows; an edit shows while it is mounted. */
  open?: boolean;
  onClose: () => void;
};

function initialValues(code: StaffPromoCode | undefined): PromoFormValues {
  return code
    ? { code: code.code, ...promoEditValues(code) }
    : { ...EMPTY_PROMO_FORM, active: true };
}

/** The 422's messages of the fields this form shows (it passed its own checks already). */
function formFieldErrors(error: unknown, code: StaffPromoCode | undefined): PromoFormErrors {
  const fields = code ? promoEditValues(code) : EMPTY_PROMO_FORM;
  return Object.fromEntries(
    Object.entries(fieldErrors(error)).filter(([field]) => field in fields),
  );
}

/**
 * Adds a promo code (code forced uppercase, discount percent, optional expiry and use limit) or,
 * given one, edits it; an edit applies to later orders only. The toasts are the mutations' own.
 */
export function PromoCodeModal({ code, open = true, onClose }: PromoCodeModalProps) {
  const [values, setValues] = useState<PromoFormValues>(() => initialValues(code));
  const [errors, setErrors] = useState<PromoFormErrors>({});
  const create = useCreatePromoCode();
  const update = useUpdatePromoCode();
  const saving = code ? update.isPending : create.isPending;

  const set = <K extends keyof PromoFormValues>(name: K, value: PromoFormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const close = () => {
    setValues(initialValues(code));
    setErrors({});
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = code ? validatePromoEdit(values, code.uses) : validatePromoForm(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    const onError = (error: unknown) => setErrors(formFieldErrors(error, code));
    if (!code) {
      create.mutate(promoCodeBody(values), { onSuccess: close, onError });
      return;
    }
    const change = promoChangeBody(values, code);
    if (Object.keys(change).length === 0) close();
    else update.mutate({ id: code.id, change }, { onSuccess: close, onError });
  };

  return (
    <Modal open={open} onClose={close} title={code ? `Edit ${code.code}` : 'Add promo code'}>
      <form
        id={code ? undefined : 'promo-code-form'}
        className="promo-form"
        noValidate
        onSubmit={onSubmit}
      >
        {code ? (
          <p className="promo-form__note">Changes apply to orders placed from now on.</p>
        ) : null}
        <PromoCodeFields code={code} values={values} errors={errors} set={set} />
        <div className="promo-form__actions">
          <Button variant="secondary" onClick={close} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {code ? 'Save changes' : 'Create promo code'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
