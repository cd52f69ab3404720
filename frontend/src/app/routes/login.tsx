import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { LoginForm } from '@/features/auth/components/login-form';
import { GuestOnly } from '@/features/auth/components/route-guards';

export function LoginRoute() {
  const navigate = useNavigate();
  const loggedIn = useCallback(() => {
    navigate(paths.home.getHref(), { replace: true });
  }, [navigate]);

  return (
    <GuestOnly>
      <AuthCard
        title="Log in"
        description="Welcome back! Log in to see your orders."
        footer={
          <p>
            No account yet? <Link to={paths.register.getHref()}>Register</Link>
          </p>
        }
      >
        <LoginForm onSuccess={loggedIn} />
      </AuthCard>
    </GuestOnly>
  );
}
