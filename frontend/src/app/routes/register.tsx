import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { RegisterForm } from '@/features/auth/components/register-form';
import { GuestOnly } from '@/features/auth/components/route-guards';
import type { VerifyEmailState } from '@/features/auth/utils/verify-email-state';

export function RegisterRoute() {
  const navigate = useNavigate();
  return (
    <GuestOnly>
      <AuthCard
        title="Create your account"
        description="Register to keep track of your orders. We'll email you a code to confirm."
        footer={
          <p>
            Already have an account? <Link to={paths.login.getHref()}>Log in</Link>
          </p>
        }
      >
        <RegisterForm
          onCodeSent={(registration, response) => {
            const state: VerifyEmailState = {
              registration,
              resendAfter: response.resend_after,
            };
            navigate(paths.verifyEmail.getHref(), { state });
          }}
        />
      </AuthCard>
    </GuestOnly>
  );
}
