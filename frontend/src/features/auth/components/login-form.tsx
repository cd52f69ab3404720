import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { paths } from '@/config/paths';
import { fieldErrors } from '@/lib/api-client';

import { useLogin } from '@/features/auth/api/login';
import { useFocusFirstError } from '@/features/auth/hooks/use-focus-first-error';
import type { User } from '@/features/auth/types';
import { formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import { PasswordField } from './password-field';
import './form-field.css';

type LoginFormProps = {
  onSuccess: (user: User) => void;
};

export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useTranslation('pages');
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const loginMutation = useLogin();

  const errors = fieldErrors(loginMutation.error);
  const hasFieldErrors = Object.keys(errors).length > 0;
  useFocusFirstError(formRef, errors);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    loginMutation.mutate({ email, password }, { onSuccess: ({ user }) => onSuccess(user) });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit}>
      {loginMutation.isError && !hasFieldErrors ? (
        <FormMessage tone="error">
          {formErrorMessage(loginMutation.error, t('auth.login.failed'))}
        </FormMessage>
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
      <PasswordField
        label={t('auth.password')}
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <div className="auth-form__row">
        <Link to={paths.forgotPassword.getHref()}>{t('auth.forgot.title')}</Link>
      </div>
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={loginMutation.isPending}>
          {t('auth.login.submit')}
        </Button>
      </div>
    </form>
  );
}
