import { useCallback } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { FormMessage } from '@/features/auth/components/form-message';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const goToLogin = useCallback(
    () => navigate(paths.login.getHref(), { replace: true }),
    [navigate],
  );

  if (!token || !email) {
    return (
      <AuthCard title="Reset your password">
        <FormMessage tone="error">Invalid or missing token/email.</FormMessage>
        <Link
          to={paths.forgotPassword.getHref()}
          className={buttonClassName({ size: 'lg', fullWidth: true })}
        >
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      description={
        <>
          Choose a new password for <strong>{email}</strong>.
        </>
      }
      footer={
        <p>
          <Link to={paths.login.getHref()}>Back to log in</Link>
        </p>
      }
    >
      <ResetPasswordForm token={token} email={email} onReset={goToLogin} />
    </AuthCard>
  );
}
