import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { fieldErrors } from '@/lib/api-client';

import { useResetPassword } from '@/features/auth/api/reset-password';
import { useFocusFirstError } from '@/features/auth/hooks/use-focus-first-error';
import { formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import { PasswordField } from './password-field';

/** How long the success message shows before the login page opens (docs/product.md, Constants and limits). */
export const REDIRECT_AFTER_RESET_MS = 2000;

type ResetPasswordFormProps = {
  token: string;
  email: string;
  /** Called 2 s after the password was changed. */
  onReset: () => void;
};

export function ResetPasswordForm({ token, email, onReset }: ResetPasswordFormProps) {
  const { t } = useTranslation('pages');
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const reset = useResetPassword();
  const done = reset.isSuccess;

  // errors.token is about the link, not a field on the page: it shows above the form.
  const { token: tokenError, ...errors } = fieldErrors(reset.error);
  const hasFieldErrors = Object.keys(errors).length > 0;
  useFocusFirstError(formRef, errors);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(onReset, REDIRECT_AFTER_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [done, onReset]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset.mutate({ token, email, password, password_confirmation: confirmation });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit}>
      {done ? <FormMessage tone="success">{reset.data.message}</FormMessage> : null}
      {tokenError ? (
        <FormMessage tone="error">
          {tokenError} <Link to={paths.forgotPassword.getHref()}>{t('auth.reset.newLink')}</Link>
        </FormMessage>
      ) : reset.isError && !hasFieldErrors ? (
        <FormMessage tone="error">{formErrorMessage(reset.error, t('auth.failed'))}</FormMessage>
      ) : null}
      <PasswordField
        label={t('auth.reset.newPassword')}
        name="password"
        autoComplete="new-password"
        required
        hint={t('auth.passwordHint', { count: 8 })}
        disabled={done}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <PasswordField
        label={t('auth.reset.confirmPassword')}
        name="password_confirmation"
        autoComplete="new-password"
        required
        disabled={done}
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        error={errors.password_confirmation}
      />
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={reset.isPending} disabled={done}>
          {t('auth.reset.submit')}
        </Button>
      </div>
    </form>
  );
}
