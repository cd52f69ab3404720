import { useTranslation } from 'react-i18next';
import type { FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';

export type PromoMessage = { tone: 'error' | 'success'; text: string };

type PromoCodeFormProps = {
  code: string;
  onCodeChange: (code: string) => void;
  onApply: () => void;
  applying: boolean;
  message: PromoMessage | null;
};

/** The promo code field and its Apply button; the outcome shows under it. */
export function PromoCodeForm({
  code,
  onCodeChange,
  onApply,
  applying,
  message,
}: PromoCodeFormProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply();
  };
  return (
    <form className="promo-form" onSubmit={submit} noValidate>
      <Field
        label={t('checkout.promo.label')}
        aside={
          <Button type="submit" variant="secondary" loading={applying}>
            {t('checkout.promo.apply')}
          </Button>
        }
      >
        {(control) => (
          <input
            {...control}
            className="checkout-field__input"
            type="text"
            name="promo_code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={code}
            onChange={(event) => onCodeChange(event.target.value)}
          />
        )}
      </Field>
      {message ? (
        <p
          className={`promo-form__message promo-form__message--${message.tone}`}
          role={message.tone === 'error' ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
