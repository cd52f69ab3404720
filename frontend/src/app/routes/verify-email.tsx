import { useCallback } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { VerifyEmailForm } from '@/features/auth/components/verify-email-form';
import { readVerifyEmailState } from '@/features/auth/utils/verify-email-state';

import './verify-email.css';

export function VerifyEmailRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = readVerifyEmailState(location.state);
  const goHome = useCallback(() => navigate(paths.home.getHref(), { replace: true }), [navigate]);

  if (!state) {
    return (
      <AuthCard
        title="Verify your email"
        description="Start by creating your account: we'll email you a 6-digit code to enter here."
      >
        <Link
          to={paths.register.getHref()}
          className={buttonClassName({ size: 'lg', fullWidth: true })}
        >
          Create an account
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Verify your email"
      description="Enter the 6-digit code sent to your email"
      footer={
        <p>
          Wrong address? <Link to={paths.register.getHref()}>Start again</Link>
        </p>
      }
    >
      <p className="verify-email__sent-to">
        Code sent to <strong>{state.registration.email}</strong>
      </p>
      <VerifyEmailForm
        registration={state.registration}
        resendAfter={state.resendAfter}
        onVerified={goHome}
      />
    </AuthCard>
  );
}
