import { useCallback } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { FormMessage } from '@/features/auth/components/form-message';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export function ResetPasswordRoute() {
  const { t } = useTranslation('pages');
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
      <AuthCard title={t('auth.reset.title')}>
        <FormMessage tone="error">{t('auth.reset.badLink')}</FormMessage>
        <Link
          to={paths.forgotPassword.getHref()}
          className={buttonClassName({ size: 'lg', fullWidth: true })}
        >
          {t('auth.reset.newLink')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('auth.reset.title')}
      description={
        <Trans
          t={t}
          i18nKey="auth.reset.description"
          values={{ email }}
          components={{ strong: <strong /> }}
        />
      }
      footer={
        <p>
          <Link to={paths.login.getHref()}>{t('auth.reset.backToLogin')}</Link>
        </p>
      }
    >
      <ResetPasswordForm token={token} email={email} onReset={goToLogin} />
    </AuthCard>
  );
}
