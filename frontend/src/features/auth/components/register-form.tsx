import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { fieldErrors } from '@/lib/api-client';

import {
  useSendVerificationCode,
  type SendVerificationCodeResponse,
} from '@/features/auth/api/send-verification-code';
import { useFocusFirstError } from '@/features/auth/hooks/use-focus-first-error';
import type { Registration } from '@/features/auth/types';
import { formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import { PasswordField } from './password-field';
import './form-field.css';

type RegisterFormProps = {
  /** The code is on its way: go and ask for it, with what was entered. */
  onCodeSent: (registration: Registration, response: SendVerificationCodeResponse) => void;
};

const EMPTY: Registration = { name: '', email: '', password: '', password_confirmation: '' };

export function RegisterForm({ onCodeSent }: RegisterFormProps) {
  const { t } = useTranslation('pages');
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Registration>(EMPTY);
  const sendCode = useSendVerificationCode();

  const errors = fieldErrors(sendCode.error);
  const hasFieldErrors = Object.keys(errors).length > 0;
  useFocusFirstError(formRef, errors);

  const change = (field: keyof Registration) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const registration = { ...values, name: values.name.trim(), email: values.email.trim() };
    sendCode.mutate(registration, {
      onSuccess: (response) => onCodeSent(registration, response),
    });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit}>
      {sendCode.isError && !hasFieldErrors ? (
        <FormMessage tone="error">
          {formErrorMessage(sendCode.error, t('auth.register.failed'))}
        </FormMessage>
      ) : null}
      <Field label={t('auth.name')} error={errors.name} announceError>
        {(control) => (
          <input
            {...control}
            className="field__input"
            type="text"
            name="name"
            autoComplete="name"
            required
            maxLength={100}
            value={values.name}
            onChange={change('name')}
          />
        )}
      </Field>
      <Field label={t('auth.email')} error={errors.email} announceError>
        {(control) => (
          <input
            {...control}
            className="field__input"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={values.email}
            onChange={change('email')}
          />
        )}
      </Field>
      <PasswordField
        label={t('auth.password')}
        name="password"
        autoComplete="new-password"
        required
        hint={t('auth.passwordHint', { count: 8 })}
        value={values.password}
        onChange={change('password')}
        error={errors.password}
      />
      <PasswordField
        label={t('auth.confirmPassword')}
        name="password_confirmation"
        autoComplete="new-password"
        required
        value={values.password_confirmation}
        onChange={change('password_confirmation')}
        error={errors.password_confirmation}
      />
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={sendCode.isPending}>
          {t('auth.register.submit')}
        </Button>
      </div>
    </form>
  );
}
