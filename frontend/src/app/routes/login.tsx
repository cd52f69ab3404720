import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { LANGUAGE_COOKIE, LANGUAGES } from '@/config/languages';
import { paths } from '@/config/paths';
import { AuthCard } from '@/features/auth/components/auth-card';
import { LoginForm } from '@/features/auth/components/login-form';
import { GuestOnly } from '@/features/auth/components/route-guards';
import { getProfile } from '@/features/profile/api/get-profile';
import { readCookie } from '@/lib/cookies';
import { chooseLanguage } from '@/lib/i18n/i18n';

/**
 * A browser that has not chosen a language (no `lang` cookie) takes the account's once its
 * owner logs in: the choice follows the shopper from device to device.
 */
async function takeAccountLanguage(): Promise<void> {
  if (readCookie(LANGUAGE_COOKIE) !== undefined) return;
  const { language } = await getProfile();
  const known = LANGUAGES.find(({ code }) => code === language);
  if (known) await chooseLanguage(known.code);
}

export function LoginRoute() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  const loggedIn = useCallback(() => {
    takeAccountLanguage().catch((error: unknown) =>
      console.error('Could not read the account’s language:', error),
    );
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
