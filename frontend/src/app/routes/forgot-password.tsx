import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export function ForgotPasswordRoute() {
  const { t } = useTranslation('pages');
  return (
    <AuthCard
      title={t('auth.forgot.title')}
      description={t('auth.forgot.description')}
      footer={
        <p>
          {t('auth.forgot.remembered')}{' '}
          <Link to={paths.login.getHref()}>{t('auth.login.submit')}</Link>
        </p>
      }
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
