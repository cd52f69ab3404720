import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { RegisterForm } from '@/features/auth/components/register-form';
import { GuestOnly } from '@/features/auth/components/route-guards';
import type { VerifyEmailState } from '@/features/auth/utils/verify-email-state';

export function RegisterRoute() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <GuestOnly>
      <AuthCard
        title={t('auth.register.title')}
        description={t('auth.register.description')}
        footer={
          <p>
            {t('auth.register.haveAccount')}{' '}
            <Link to={paths.login.getHref()}>{t('auth.login.submit')}</Link>
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
