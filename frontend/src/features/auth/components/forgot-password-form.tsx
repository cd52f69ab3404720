import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { fieldErrors } from '@/lib/api-client';

import { useForgotPassword } from '@/features/auth/api/forgot-password';
import { useFocusFirstError } from '@/features/auth/hooks/use-focus-first-error';
import { formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import './form-field.css';

export function ForgotPasswordForm() {
  const { t } = useTranslation('pages');
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();

  const errors = fieldErrors(forgot.error);
  const hasFieldErrors = Object.keys(errors).length > 0;
  useFocusFirstError(formRef, errors);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    forgot.mutate({ email: email.trim() });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit}>
      {forgot.isSuccess ? <FormMessage tone="success">{forgot.data.message}</FormMessage> : null}
      {forgot.isError && !hasFieldErrors ? (
        <FormMessage tone="error">{formErrorMessage(forgot.error, t('auth.failed'))}</FormMessage>
      ) : null}
      <Field label={t('auth.email')} error={errors.email} announceError>
        {(control) => (
          <input
            {...control}
            className="field__input"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </Field>
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={forgot.isPending}>
          {t('auth.forgot.submit')}
        </Button>
      </div>
    </form>
  );
}
