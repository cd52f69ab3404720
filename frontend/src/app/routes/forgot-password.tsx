import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export function ForgotPasswordRoute() {
  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email and we'll send you a link to choose a new one."
      footer={
        <p>
          Remembered it? <Link to={paths.login.getHref()}>Log in</Link>
        </p>
      }
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
