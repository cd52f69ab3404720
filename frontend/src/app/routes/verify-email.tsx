import { useCallback } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { VerifyEmailForm } from '@/features/auth/components/verify-email-form';
import { readVerifyEmailState } from '@/features/auth/utils/verify-email-state';

import './verify-email.css';

export function VerifyEmailRoute() {
  const { t } = useTranslation('pages');
  const location = useLocation();
  const navigate = useNavigate();
  const state = readVerifyEmailState(location.state);
  const goHome = useCallback(() => navigate(paths.home.getHref(), { replace: true }), [navigate]);

  if (!state) {
    return (
      <AuthCard title={t('auth.verify.title')} description={t('auth.verify.start')}>
        <Link
          to={paths.register.getHref()}
          className={buttonClassName({ size: 'lg', fullWidth: true })}
        >
          {t('auth.verify.create')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('auth.verify.title')}
      description={t('auth.verify.description')}
      footer={
        <p>
          {t('auth.verify.wrongAddress')}{' '}
          <Link to={paths.register.getHref()}>{t('auth.verify.startAgain')}</Link>
        </p>
      }
    >
      <p className="verify-email__sent-to">
        <Trans
          t={t}
          i18nKey="auth.verify.sentTo"
          values={{ email: state.registration.email }}
          components={{ strong: <strong /> }}
        />
      </p>
      <VerifyEmailForm
        registration={state.registration}
        resendAfter={state.resendAfter}
        onVerified={goHome}
      />
    </AuthCard>
  );
}
