import { useRef, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';

import { useForgotPassword } from '@/features/auth/api/forgot-password';
import { useFocusFirstError } from '@/features/auth/hooks/use-focus-first-error';
import { firstFieldErrors, formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import { TextField } from './text-field';

export function ForgotPasswordForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();

  const fieldErrors = firstFieldErrors(forgot.error);
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  useFocusFirstError(formRef, fieldErrors);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    forgot.mutate({ email: email.trim() });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit}>
      {forgot.isSuccess ? <FormMessage tone="success">{forgot.data.message}</FormMessage> : null}
      {forgot.isError && !hasFieldErrors ? (
        <FormMessage tone="error">
          {formErrorMessage(forgot.error, 'Something went wrong.')}
        </FormMessage>
      ) : null}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={fieldErrors.email}
      />
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={forgot.isPending}>
          Send Reset Link
        </Button>
      </div>
    </form>
  );
}
