import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { LoginForm } from '@/features/auth/components/login-form';
import { GuestOnly } from '@/features/auth/components/route-guards';

export function LoginRoute() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  const loggedIn = useCallback(() => {
    navigate(paths.home.getHref(), { replace: true });
  }, [navigate]);

  return (
    <GuestOnly>
      <AuthCard
        title={t('auth.login.title')}
        description={t('auth.login.description')}
        footer={
          <p>
            {t('auth.login.noAccount')}{' '}
            <Link to={paths.register.getHref()}>{t('auth.login.register')}</Link>
          </p>
        }
      >
        <LoginForm onSuccess={loggedIn} />
      </AuthCard>
    </GuestOnly>
  );
}
