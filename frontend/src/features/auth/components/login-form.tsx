import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

import { useLogin } from '@/features/auth/api/login';
import { useFocusFirstError } from '@/features/auth/hooks/use-focus-first-error';
import type { User } from '@/features/auth/types';
import { firstFieldErrors, formErrorMessage } from '@/features/auth/utils/form-errors';
import { FormMessage } from './form-message';
import { PasswordField } from './password-field';
import { TextField } from './text-field';

type LoginFormProps = {
  onSuccess: (user: User) => void;
};

export function LoginForm({ onSuccess }: LoginFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const loginMutation = useLogin();

  const fieldErrors = firstFieldErrors(loginMutation.error);
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  useFocusFirstError(formRef, fieldErrors);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    loginMutation.mutate({ email, password }, { onSuccess: ({ user }) => onSuccess(user) });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit}>
      {loginMutation.isError && !hasFieldErrors ? (
        <FormMessage tone="error">
          {formErrorMessage(loginMutation.error, 'Login failed')}
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
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldErrors.password}
      />
      <div className="auth-form__row">
        <Link to={paths.forgotPassword.getHref()}>Forgot your password?</Link>
      </div>
      <div className="auth-form__actions">
        <Button type="submit" size="lg" fullWidth loading={loginMutation.isPending}>
          Log in
        </Button>
      </div>
    </form>
  );
}
